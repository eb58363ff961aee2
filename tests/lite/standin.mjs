// A small stand-in for what xlwings Lite does with a workbook's main.py and requirements.txt, run in a
// real Pyodide under node. Written for xlcircuit's tests from the steps Lite takes (read in xlwings
// Server's sources, which are not open source: nothing of them is copied here):
//   1. load Pyodide and micropip, install xlwings and the cached wheels of what requirements.txt names (the
//      scripts' openpyxl and defusedxml), then every line of requirements.txt, with micropip;
//   2. set XLWINGS_ON_SERVER=true, import xlwings, run main.py as a module named "main", from its text;
//   3. register its functions from xlwings.server.custom_functions_meta(main) (names, parameters);
//   4. call a function as Excel's custom-functions runtime does: every parameter is a matrix (a cell
//      is [[value]], a blank cell null, an omitted optional argument null), sent as an "Office.js"
//      body to xlwings.server.custom_functions_call, converted from JS with to_py();
//   5. a raised error becomes Excel's #VALUE! with the error's text as its tip.
//
// Usage: node standin.mjs CONFIG.json  (config: pyodide, micropip, xlwings, wheels, cache, lite, calls)
// Prints one JSON object: versions, the registered functions, one result per call.

import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const config = JSON.parse(readFileSync(process.argv[2], "utf8"));
const { loadPyodide } = await import(pathToFileURL(path.join(config.pyodide, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: config.pyodide + path.sep, stdout: () => {}, stderr: () => {} });

// 1. micropip from its wheel (the CDN Pyodide would use is out of reach); xlwings and requirements.txt.
pyodide.FS.mkdirTree("/cache");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: config.cache }, "/cache");
await pyodide.loadPackage(config.micropip);
const micropip = pyodide.pyimport("micropip");
await micropip.install("emfs:/cache/" + path.basename(config.xlwings));
for (const wheel of config.wheels ?? []) await micropip.install("emfs:/cache/" + path.basename(wheel));
const requirements = readFileSync(path.join(config.lite, "requirements.txt"), "utf8")
  .split(/\r?\n/).map((line) => line.trim()).filter((line) => line && !line.startsWith("#"));
await micropip.install(requirements);

// 2. and 5. The Python side: main.py as module "main", a call body in, a value or an error out.
pyodide.runPython(`
import importlib.util, os, sys, traceback
os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")  # the documented free value
os.environ["XLWINGS_ON_SERVER"] = "true"  # Lite's runtime says so before importing xlwings (xw.func is then Lite's)
import xlwings, xlwings.server

def standin_load(text):
    spec = importlib.util.spec_from_loader("main", loader=None)
    module = importlib.util.module_from_spec(spec)
    exec(text, module.__dict__)
    sys.modules["main"] = module
    return module

async def standin_call(module, body):
    data = body.to_py()
    try:
        return {"value": await xlwings.server.custom_functions_call(data, module=module)}
    except Exception as error:
        return {"error": str(error), "details": traceback.format_exc()}
`);
const main = pyodide.globals.get("standin_load")(readFileSync(path.join(config.lite, "main.py"), "utf8"));

// 3. Registration.
const meta = pyodide.globals.get("xlwings").server.custom_functions_meta(main)
  .toJs({ dict_converter: Object.fromEntries });
const functions = meta.functions.map((f) => ({
  id: f.id, name: f.name, description: f.description,
  parameters: f.parameters.map((p) => ({
    name: p.name, description: p.description, dimensionality: p.dimensionality, optional: !!p.optional,
  })),
}));
const registered = new Map(functions.map((f) => [f.name, f]));

// 4. Calls, as Excel makes them.
function finite(value) {  // keep inf and nan visible through JSON
  if (Array.isArray(value)) return value.map(finite);
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  return value === undefined ? null : value;
}
const call = pyodide.globals.get("standin_call");
const results = [];
for (const { name, args } of config.calls) {
  const fn = registered.get(name);
  if (!fn) { results.push({ unregistered: name }); continue; }
  // Excel passes every declared parameter: null for an omitted optional one.
  const passed = fn.parameters.map((_, i) => (i < args.length ? args[i] : null));
  const body = {
    client: "Office.js", func_name: fn.id, args: passed, caller_address: "[Classeur1]Feuil1!A1",
    version: "standin", runtime: "1.4", culture_info_name: "fr-FR", date_format: "dd/MM/yyyy",
  };
  const started = performance.now();
  const out = (await call(main, body)).toJs({ dict_converter: Object.fromEntries });
  const ms = performance.now() - started;
  if (out.error !== undefined) results.push({ error: "#VALUE!", message: out.error, ms });
  else results.push({ value: finite(out.value), ms });
}

console.log(JSON.stringify({
  pyodide: pyodide.version,
  python: pyodide.runPython("import sys; sys.version.split()[0]"),
  xlwings: pyodide.runPython("import xlwings; xlwings.__version__"),
  functions, results,
}));
