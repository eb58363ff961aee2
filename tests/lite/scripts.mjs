// A stand-in for xlwings Lite running a workbook's scripts, in a real Pyodide under node. Written for
// xlcircuit's tests from the steps Lite takes (read in xlwings' and xlwings Server's sources and in Lite's
// documentation; nothing of xlwings Server, which is not open source, is copied here):
//   1. load Pyodide and micropip; install the cached wheels (xlwings and the packages requirements.txt
//      names: the CDN Pyodide would use is out of reach), mock the packages Pyodide's own repository would
//      give (Pillow), then every line of requirements.txt with micropip (a wheel's address included);
//   2. set XLWINGS_ON_SERVER=true, import xlwings, run main.py as a module named "main", from its text;
//   3. list its scripts with xlwings.server.custom_scripts_meta(main) (Lite's Run menu);
//   4. run a script as Lite does: the book JSON the add-in sends, converted from JS with to_py(), made into
//      xlwings' remote book (xw.Book(json=...)), given to xlwings.server.custom_scripts_call(main, name,
//      typehint_to_value={xw.Book: book}); the actions the book recorded (book.json()) are what Lite runs
//      in Excel; what the script printed is Lite's output pane.
//
// Usage: node scripts.mjs CONFIG.json  (config: pyodide, micropip, wheels, cache, routes)
// A route: {name, lite: the folder of requirements.txt and main.py, mock: [[name, version]], runs}; a run:
// {id, script, payload: a JSON file}. Prints one JSON object: versions, and per route its scripts, where
// xlcircuit was imported from, one result a run (the actions, what was printed, or the error).

import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const config = JSON.parse(readFileSync(process.argv[2], "utf8"));
const started = performance.now();
const { loadPyodide } = await import(pathToFileURL(path.join(config.pyodide, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: config.pyodide + path.sep, stdout: () => {}, stderr: () => {} });
const loaded = performance.now();

// 1. The cached wheels (the CDN Pyodide would use is out of reach).
pyodide.FS.mkdirTree("/cache");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: config.cache }, "/cache");
await pyodide.loadPackage(config.micropip);
const micropip = pyodide.pyimport("micropip");
for (const wheel of config.wheels) await micropip.install("emfs:/cache/" + path.basename(wheel));
const installed = performance.now();

// 2. and 4. The Python side.
pyodide.runPython(`
import contextlib, importlib.util, io, json, os, sys, time, traceback
os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")  # the documented free value
os.environ["XLWINGS_ON_SERVER"] = "true"  # Lite's runtime says so before importing xlwings
import xlwings as xw
import xlwings.server

def standin_load(text):
    spec = importlib.util.spec_from_loader("main", loader=None)
    module = importlib.util.module_from_spec(spec)
    exec(text, module.__dict__)
    sys.modules["main"] = module
    return module

def standin_meta(module):
    return json.dumps(xlwings.server.custom_scripts_meta(module), default=str)

def standin_origin():
    return getattr(sys.modules.get("xlcircuit"), "__file__", None)

async def standin_run(module, name, data):
    payload = data.to_py()
    book = xw.Book(json=payload)
    printed = io.StringIO()
    start = time.perf_counter()
    try:
        with contextlib.redirect_stdout(printed):
            result = await xlwings.server.custom_scripts_call(module, name, typehint_to_value={xw.Book: book})
        out = {"actions": result.json()["actions"]}
    except Exception as error:
        out = {"error": str(error), "details": traceback.format_exc()}
    out.update(printed=printed.getvalue(), seconds=time.perf_counter() - start)
    return json.dumps(out)
`);

// Each route: its requirements.txt installed (a package Pyodide's own repository would give mocked), its
// main.py loaded as "main" (a later main.py replaces an earlier one, as in Lite), its scripts listed, its runs.
const routes = [];
for (const route of config.routes) {
  const begun = performance.now();
  for (const [name, version] of route.mock ?? []) micropip.add_mock_package(name, version);
  const requirements = readFileSync(path.join(route.lite, "requirements.txt"), "utf8")
    .split(/\r?\n/).map((line) => line.trim()).filter((line) => line && !line.startsWith("#"));
  await micropip.install(requirements);
  const main = pyodide.globals.get("standin_load")(readFileSync(path.join(route.lite, "main.py"), "utf8"));
  const scripts = JSON.parse(pyodide.globals.get("standin_meta")(main));
  const ready = performance.now();
  const run = pyodide.globals.get("standin_run");
  const results = [];
  for (const { id, script, payload } of route.runs) {
    const data = JSON.parse(readFileSync(payload, "utf8"));  // a JS object: Python gets it as a JsProxy
    const cpu = process.cpuUsage();  // this process's processor time: what the run costs, however busy the machine
    const out = JSON.parse(await run(main, script, data));
    const used = process.cpuUsage(cpu);
    results.push({ id, script, ...out, cpu: (used.user + used.system) / 1e6 });
  }
  routes.push({
    name: route.name, xlcircuit: pyodide.globals.get("standin_origin")() ?? null, scripts, results,
    seconds: { load: (ready - begun) / 1000 },
  });
}

console.log(JSON.stringify({
  pyodide: pyodide.version,
  xlwings: pyodide.runPython("import xlwings; xlwings.__version__"),
  seconds: { start: (loaded - started) / 1000, install: (installed - loaded) / 1000 },
  routes,
}));
