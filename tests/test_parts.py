"""Each OOXML part the surgical fill changes, tested on its own as XlsxWriter tests its parts: an input part,
the change asked for, the exact XML expected (``xlcircuit/xlsx/parts/``). The inputs are written as Excel
writes them, as openpyxl writes them with and without lxml (namespaces declared on the root, or on each
element), and as tools writing namespace prefixes (``<x:workbook>``) do."""

from __future__ import annotations

import pytest

from xlcircuit.xlsx.ooxml import Unsupported
from xlcircuit.xlsx.parts import app, calc_chain, content_types, custom, relationships, styles, table, workbook

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PR = "http://schemas.openxmlformats.org/package/2006/relationships"
CT = "http://schemas.openxmlformats.org/package/2006/content-types"
DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
WS = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"


def b(text: str) -> bytes:
    return text.encode()


# --- [Content_Types].xml -----------------------------------------------------------------------------

EXCEL_TYPES = (f'{DECL}<Types xmlns="{CT}"><Default Extension="rels" ContentType="application/vnd.openxmlformats-'
               'package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override '
               'PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.'
               f'sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="{WS}"/><Override '
               'PartName="/xl/calcChain.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.'
               'calcChain+xml"/></Types>')


def test_content_types_unchanged_when_nothing_changes():
    xml = b(EXCEL_TYPES)
    assert content_types.patched(xml, {"xl/worksheets/sheet1.xml": WS}, (), {"xml": "application/xml"}) is xml


def test_content_types_lose_the_overrides_of_parts_gone_and_gain_those_of_new_parts():
    got = content_types.patched(b(EXCEL_TYPES), {"xl/worksheets/sheet2.xml": WS}, {"xl/calcChain.xml"},
                                {"png": "image/png", "XML": "application/xml"})
    assert got == b(
        f'{DECL}<Types xmlns="{CT}"><Default Extension="png" ContentType="image/png"/><Default Extension="rels" '
        'ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" '
        'ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.'
        'openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" '
        f'ContentType="{WS}"/><Override PartName="/xl/worksheets/sheet2.xml" ContentType="{WS}"/></Types>')


def test_content_types_compare_part_names_without_case_and_read_overrides_written_in_full():
    xml = b(f'<Types xmlns="{CT}"><Override PartName="/XL/CalcChain.xml" ContentType="x"></Override>'
            '<!-- <Override PartName="/xl/calcChain.xml"/> --></Types>')
    assert content_types.patched(xml, {}, {"xl/calcChain.xml"}) == b(
        f'<Types xmlns="{CT}"><!-- <Override PartName="/xl/calcChain.xml"/> --></Types>')


def test_content_types_with_a_namespace_prefix_get_new_entries_with_it():
    xml = b(f"<ct:Types xmlns:ct='{CT}'><ct:Default Extension='xml' ContentType='application/xml'/></ct:Types>")
    assert content_types.patched(xml, {"xl/a.xml": "t"}, (), {"png": "image/png"}) == b(
        f"<ct:Types xmlns:ct='{CT}'><ct:Default Extension=\"png\" ContentType=\"image/png\"/><ct:Default "
        "Extension='xml' ContentType='application/xml'/><ct:Override PartName=\"/xl/a.xml\" ContentType=\"t\"/>"
        "</ct:Types>")


def test_empty_content_types_are_opened():
    assert content_types.patched(b(f'<Types xmlns="{CT}"/>'), {"xl/a.xml": "t"}) == b(
        f'<Types xmlns="{CT}"><Override PartName="/xl/a.xml" ContentType="t"/></Types>')


def test_content_types_without_their_root_are_refused():
    with pytest.raises(Unsupported, match="racine Types"):
        content_types.patched(b"<Typez/>", {})


# --- relationships -----------------------------------------------------------------------------------

EXCEL_BOOK_RELS = (f'{DECL}<Relationships xmlns="{PR}"><Relationship Id="rId3" Type="{R}/styles" Target="styles.xml"/>'
                   f'<Relationship Id="rId2" Type="{R}/theme" Target="theme/theme1.xml"/><Relationship Id="rId1" '
                   f'Type="{R}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId5" Type="{R}/calcChain" '
                   f'Target="calcChain.xml"/><Relationship Id="rId4" Type="{R}/sharedStrings" '
                   'Target="sharedStrings.xml"/></Relationships>')


def test_relationships_added_at_the_end():
    got = relationships.added(b(EXCEL_BOOK_RELS), [("rId6", f"{R}/worksheet", "/xl/worksheets/sheet2.xml")], "r")
    assert got == b(EXCEL_BOOK_RELS.replace(
        "</Relationships>", f'<Relationship Id="rId6" Type="{R}/worksheet" Target="/xl/worksheets/sheet2.xml"/>'
        "</Relationships>"))


def test_the_calc_chains_relationship_goes():
    got = relationships.without(b(EXCEL_BOOK_RELS), "/calcChain", "r")
    assert got == b(EXCEL_BOOK_RELS.replace(f'<Relationship Id="rId5" Type="{R}/calcChain" Target="calcChain.xml"/>',
                                            ""))


def test_relationships_written_in_full_with_single_quotes_and_a_prefix():
    xml = b(f"<p:Relationships xmlns:p='{PR}'><p:Relationship Id='rId1' Type='{R}/calcChain' Target='c.xml'>"
            "</p:Relationship></p:Relationships>")
    assert relationships.without(xml, "/calcChain", "r") == b(f"<p:Relationships xmlns:p='{PR}'></p:Relationships>")
    assert relationships.added(xml, [("rId2", "t", "x.xml")], "r") == xml.replace(
        b"</p:Relationships>", b'<p:Relationship Id="rId2" Type="t" Target="x.xml"/></p:Relationships>')
    assert relationships.without(xml, "/styles", "r") is xml


def test_a_new_relationship_part():
    assert relationships.relationships_xml([("rId1", "t", "a&b.xml", False), ("rId2", "u", "http://x", True)]) == b(
        f'{DECL}<Relationships xmlns="{PR}"><Relationship Id="rId1" Type="t" Target="a&amp;b.xml"/><Relationship '
        'Id="rId2" Type="u" Target="http://x" TargetMode="External"/></Relationships>')
    assert relationships.free_id({"rId1", "rId3"}) == "rId2"


# --- xl/workbook.xml ---------------------------------------------------------------------------------

EXCEL_BOOK = (f'{DECL}<workbook xmlns="{MAIN}" xmlns:r="{R}"><fileVersion appName="xl" lastEdited="4" lowestEdited="4" '
              'rupBuild="4505"/><workbookPr defaultThemeVersion="124226"/><bookViews><workbookView xWindow="240" '
              'yWindow="15" windowWidth="16095" windowHeight="9660"/></bookViews><sheets><sheet name="Sheet1" '
              'sheetId="1" r:id="rId1"/></sheets><definedNames><definedName name="_xlnm.Print_Titles" '
              'localSheetId="0">Sheet1!$1:$2</definedName></definedNames><calcPr calcId="124519"/></workbook>')
#: As openpyxl writes it with lxml installed: the relationships' namespace declared on each sheet.
LXML_BOOK = (f'<workbook xmlns="{MAIN}"><workbookPr/><sheets><sheet xmlns:r="{R}" name="Sheet" sheetId="1" '
             'state="visible" r:id="rId1"/></sheets><calcPr calcId="124519" fullCalcOnLoad="1"/></workbook>')
#: As some tools write it: every element with a prefix, no default namespace, no calcPr.
PREFIXED_BOOK = (f'<x:workbook xmlns:x="{MAIN}" xmlns:rel="{R}"><x:sheets><x:sheet name="Feuil1" sheetId="3" '
                 'rel:id="rId1"/></x:sheets><x:extLst/></x:workbook>')


def test_the_workbook_is_recalculated_on_opening():
    assert workbook.recalculated(b(EXCEL_BOOK)) == b(EXCEL_BOOK.replace(
        '<calcPr calcId="124519"/>', '<calcPr calcId="124519" fullCalcOnLoad="1"/>'))
    xml = b(LXML_BOOK)
    assert workbook.recalculated(xml) is xml


def test_a_workbook_without_calcpr_gets_one_before_the_elements_after_it():
    assert workbook.recalculated(b(PREFIXED_BOOK)) == b(PREFIXED_BOOK.replace(
        "<x:extLst/>", '<x:calcPr fullCalcOnLoad="1"/><x:extLst/>'))
    bare = f'<workbook xmlns="{MAIN}"><sheets/></workbook>'
    assert workbook.recalculated(b(bare)) == b(bare.replace("</workbook>", '<calcPr fullCalcOnLoad="1"/></workbook>'))


def test_a_calcpr_saying_false_is_set_and_its_other_attributes_kept():
    xml = b(f"<workbook xmlns='{MAIN}'><sheets/><calcPr fullCalcOnLoad='0' calcId='191029'></calcPr></workbook>")
    assert workbook.recalculated(xml) == b(
        f"<workbook xmlns='{MAIN}'><sheets/><calcPr fullCalcOnLoad=\"1\" calcId='191029'></calcPr></workbook>")


def test_new_sheets_use_the_relationships_prefix_the_root_declares():
    assert workbook.with_sheets(b(EXCEL_BOOK), [("Classement", 2, "rId6")]) == b(EXCEL_BOOK.replace(
        "</sheets>", '<sheet name="Classement" sheetId="2" r:id="rId6"/></sheets>'))
    assert workbook.with_sheets(b(PREFIXED_BOOK), [("A & B", 4, "rId2")]) == b(PREFIXED_BOOK.replace(
        "</x:sheets>", '<x:sheet name="A &amp; B" sheetId="4" rel:id="rId2"/></x:sheets>'))


def test_new_sheets_declare_the_relationships_namespace_where_the_root_does_not():
    got = workbook.with_sheets(b(LXML_BOOK), [("Points", 2, "rId3")])
    assert got == b(LXML_BOOK.replace("</sheets>", f'<sheet xmlns:r="{R}" name="Points" sheetId="2" r:id="rId3"/>'
                                      "</sheets>"))
    assert workbook.sheet_ids(got) == [("Sheet", 1), ("Points", 2)]


def test_print_names_of_the_owned_sheets_are_replaced_and_the_others_kept():
    xml = b(EXCEL_BOOK.replace("</definedNames>", '<definedName name="Mon_nom">Sheet1!$A$1</definedName>'
                               "</definedNames>"))
    got = workbook.with_print_names(xml, {0: [("_xlnm.Print_Titles", "'Sheet1'!$3:$3")], 1: []})
    assert got == b(EXCEL_BOOK.replace(
        '<definedName name="_xlnm.Print_Titles" localSheetId="0">Sheet1!$1:$2</definedName>',
        '<definedName name="Mon_nom">Sheet1!$A$1</definedName><definedName name="_xlnm.Print_Titles" '
        "localSheetId=\"0\">'Sheet1'!$3:$3</definedName>"))
    assert workbook.with_print_names(got, {0: [("_xlnm.Print_Titles", "'Sheet1'!$3:$3")]}) is got


def test_print_names_unchanged_when_they_say_the_same_even_escaped_otherwise():
    xml = b(EXCEL_BOOK.replace("Sheet1!$1:$2", "&apos;Sheet1&apos;!$1:$2"))
    assert workbook.with_print_names(xml, {0: [("_xlnm.Print_Titles", "'Sheet1'!$1:$2")]}) is xml


def test_print_names_get_a_block_where_the_schema_puts_it():
    got = workbook.with_print_names(b(PREFIXED_BOOK), {0: [("_xlnm.Print_Area", "Feuil1!$A$1:$B$2")]})
    assert got == b(PREFIXED_BOOK.replace("<x:extLst/>", '<x:definedNames><x:definedName name="_xlnm.Print_Area" '
                                          'localSheetId="0">Feuil1!$A$1:$B$2</x:definedName></x:definedNames>'
                                          "<x:extLst/>"))
    removed = workbook.with_print_names(b(EXCEL_BOOK), {0: []})
    assert removed == b(EXCEL_BOOK.replace('<definedName name="_xlnm.Print_Titles" localSheetId="0">Sheet1!$1:$2'
                                           "</definedName>", ""))


def test_a_workbook_without_a_list_of_sheets_is_refused():
    with pytest.raises(Unsupported, match="liste de feuilles"):
        workbook.check(b(f'<workbook xmlns="{MAIN}"/>'))
    with pytest.raises(Unsupported, match="racine workbook"):
        workbook.check(b'<workbook xmlns="urn:autre"><sheets/></workbook>')


# --- xl/calcChain.xml --------------------------------------------------------------------------------

#: As Excel writes it: ``i`` (the sheet's id) only where it changes.
EXCEL_CHAIN = (f'{DECL}<calcChain xmlns="{MAIN}"><c r="B12" i="1"/><c r="B11"/><c r="B6"/><c r="A1" i="3" l="1"/>'
               '<c r="A2"/><c r="C1" i="1" a="1"/></calcChain>')


def test_the_owned_sheets_cells_leave_the_chain_byte_for_byte():
    assert calc_chain.without_sheets(b(EXCEL_CHAIN), {3}) == b(
        f'{DECL}<calcChain xmlns="{MAIN}"><c r="B12" i="1"/><c r="B11"/><c r="B6"/><c r="C1" i="1" a="1"/></calcChain>')
    assert calc_chain.without_sheets(b(EXCEL_CHAIN), {1}) == b(
        f'{DECL}<calcChain xmlns="{MAIN}"><c r="A1" i="3" l="1"/><c r="A2"/></calcChain>')


def test_a_chain_without_the_owned_sheets_is_the_same_bytes_and_an_emptied_one_goes():
    xml = b(EXCEL_CHAIN)
    assert calc_chain.without_sheets(xml, {2}) is xml
    assert calc_chain.without_sheets(xml, {1, 3}) is None


def test_a_chain_starting_without_i_is_sheet_zero_and_prefixes_are_read():
    xml = b(f'<x:calcChain xmlns:x="{MAIN}"><x:c r="A1"/><x:c r="A2" i="2"/><x:extLst/></x:calcChain>')
    assert calc_chain.without_sheets(xml, {0}) == b(f'<x:calcChain xmlns:x="{MAIN}"><x:c r="A2" i="2"/><x:extLst/>'
                                                    "</x:calcChain>")


def test_a_chain_with_a_sheet_id_that_is_no_number_is_refused():
    with pytest.raises(Unsupported, match="numéro de feuille"):
        calc_chain.without_sheets(b(f'<calcChain xmlns="{MAIN}"><c r="A1" i="1e20x"/></calcChain>'), {1})


# --- docProps/app.xml --------------------------------------------------------------------------------

EXTENDED = "http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"
VT = "http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"
EXCEL_APP = (f'{DECL}<Properties xmlns="{EXTENDED}" xmlns:vt="{VT}"><Application>Microsoft Excel</Application>'
             '<DocSecurity>0</DocSecurity><ScaleCrop>false</ScaleCrop><HeadingPairs><vt:vector size="2" '
             'baseType="variant"><vt:variant><vt:lpstr>Worksheets</vt:lpstr></vt:variant><vt:variant><vt:i4>1</vt:i4>'
             '</vt:variant></vt:vector></HeadingPairs><TitlesOfParts><vt:vector size="1" baseType="lpstr"><vt:lpstr>'
             'Sheet1</vt:lpstr></vt:vector></TitlesOfParts><Company></Company><LinksUpToDate>false</LinksUpToDate>'
             '<AppVersion>12.0000</AppVersion></Properties>')


def test_the_list_of_sheets_leaves_the_extended_properties():
    assert app.without_sheet_lists(b(EXCEL_APP)) == b(
        f'{DECL}<Properties xmlns="{EXTENDED}" xmlns:vt="{VT}"><Application>Microsoft Excel</Application>'
        '<DocSecurity>0</DocSecurity><ScaleCrop>false</ScaleCrop><Company></Company><LinksUpToDate>false'
        '</LinksUpToDate><AppVersion>12.0000</AppVersion></Properties>')
    openpyxl_app = b(f'<Properties xmlns="{EXTENDED}"><Application>Microsoft Excel</Application></Properties>')
    assert app.without_sheet_lists(openpyxl_app) is openpyxl_app


# --- docProps/custom.xml -----------------------------------------------------------------------------

CUSTOM = "http://schemas.openxmlformats.org/officeDocument/2006/custom-properties"
FMTID = "{D5CDD505-2E9C-101B-9397-08002B2CF9AE}"
EXCEL_CUSTOM = (f'{DECL}<Properties xmlns="{CUSTOM}" xmlns:vt="{VT}"><property fmtid="{FMTID}" pid="2" '
                'name="Client"><vt:lpwstr>Club</vt:lpwstr></property><property fmtid="{FMTID}" pid="3" name="xlcircuit">'
                '<vt:lpwstr>dbm</vt:lpwstr></property></Properties>').replace("{FMTID}", FMTID)


def test_the_federations_mark_is_set_and_the_other_properties_kept():
    assert custom.value(b(EXCEL_CUSTOM), "xlcircuit") == "dbm"
    assert custom.with_value(b(EXCEL_CUSTOM), "xlcircuit", "tdf") == b(EXCEL_CUSTOM.replace(">dbm<", ">tdf<"))
    xml = b(EXCEL_CUSTOM)
    assert custom.with_value(xml, "xlcircuit", "dbm") is xml


def test_the_federations_mark_is_added_with_the_next_pid():
    xml = b(f'<Properties xmlns="{CUSTOM}" xmlns:vt="{VT}"><property fmtid="{FMTID}" pid="7" name="A"><vt:bool>true'
            "</vt:bool></property></Properties>")
    assert custom.with_value(xml, "xlcircuit", "elo") == xml.replace(b"</Properties>", b(
        f'<property fmtid="{FMTID}" pid="8" name="xlcircuit"><vt:lpwstr>elo</vt:lpwstr></property></Properties>'))


def test_the_federations_mark_declares_the_value_types_namespace_where_none_is():
    xml = b(f'<op:Properties xmlns:op="{CUSTOM}"/>')
    assert custom.with_value(xml, "xlcircuit", "cdf") == b(
        f'<op:Properties xmlns:op="{CUSTOM}"><op:property fmtid="{FMTID}" pid="2" name="xlcircuit"><vt:lpwstr '
        f'xmlns:vt="{VT}">cdf</vt:lpwstr></op:property></op:Properties>')
    assert custom.new("xlcircuit", "tdf") == b(
        f'{DECL}<Properties xmlns="{CUSTOM}" xmlns:vt="{VT}"><property fmtid="{FMTID}" pid="2" name="xlcircuit">'
        "<vt:lpwstr>tdf</vt:lpwstr></property></Properties>")


# --- xl/styles.xml -----------------------------------------------------------------------------------

EXCEL_STYLES = (f'{DECL}<styleSheet xmlns="{MAIN}"><fonts count="1"><font><sz val="11"/><color theme="1"/>'
                '<name val="Calibri"/><family val="2"/><scheme val="minor"/></font></fonts><fills count="2"><fill>'
                '<patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>'
                '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
                '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
                '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>'
                '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles><dxfs count="0"/>'
                '<tableStyles count="0" defaultTableStyle="TableStyleMedium9" defaultPivotStyle="PivotStyleLight16"/>'
                '</styleSheet>')


def test_styles_are_counted():
    got = styles.counts(b(EXCEL_STYLES))
    assert got.lists == {"numFmts": 0, "fonts": 1, "fills": 2, "borders": 1, "cellStyleXfs": 1, "cellXfs": 1,
                         "dxfs": 0}
    assert got.formats == {}


def test_styles_appended_counts_updated_lists_created_where_they_belong():
    got = styles.appended(b(EXCEL_STYLES), {"numFmts": [b'<numFmt numFmtId="164" formatCode="0.0"/>'],
                                            "fonts": [b'<font><b val="1" /></font>'],
                                            "cellXfs": [b'<xf numFmtId="164" fontId="1" xfId="0"/>'],
                                            "dxfs": [b"<dxf><font><b/></font></dxf>"], "fills": []})
    assert got == b(EXCEL_STYLES.replace("<fonts count=\"1\">", '<numFmts count="1"><numFmt numFmtId="164" '
                                         'formatCode="0.0"/></numFmts><fonts count="2">')
                    .replace("</font></fonts>", '</font><font><b val="1" /></font></fonts>')
                    .replace('<cellXfs count="1">', '<cellXfs count="2">')
                    .replace("</cellXfs>", '<xf numFmtId="164" fontId="1" xfId="0"/></cellXfs>')
                    .replace('<dxfs count="0"/>', '<dxfs count="1"><dxf><font><b/></font></dxf></dxfs>'))
    assert styles.counts(got).formats == {"0.0": 164}


def test_styles_with_a_prefix_get_their_new_items_prefixed():
    xml = b(f"<s:styleSheet xmlns:s='{MAIN}'><s:fonts count='1'><s:font/></s:fonts><s:cellXfs count='1'><s:xf/>"
            "</s:cellXfs></s:styleSheet>")
    assert styles.counts(xml).lists["fonts"] == 1
    assert styles.appended(xml, {"fonts": [b'<font><b val="1"/></font>'], "borders": [b"<border><left/></border>"]}) \
        == b(f"<s:styleSheet xmlns:s='{MAIN}'><s:fonts count=\"2\"><s:font/><s:font><s:b val=\"1\"/></s:font>"
             '</s:fonts><s:borders count="1"><s:border><s:left/></s:border></s:borders><s:cellXfs count=\'1\'><s:xf/>'
             "</s:cellXfs></s:styleSheet>")


# --- xl/tables/tableN.xml ----------------------------------------------------------------------------

EXCEL_TABLE = (f'{DECL}<table xmlns="{MAIN}" id="1" name="Table1" displayName="Table1" ref="C3:F13" totalsRowShown="0">'
               '<autoFilter ref="C3:F13"/><tableColumns count="4"><tableColumn id="1" name="Column1"/><tableColumn '
               'id="2" name="Column2"/><tableColumn id="3" name="Column3"/><tableColumn id="4" name="Column4"/>'
               "</tableColumns><tableStyleInfo name=\"TableStyleMedium9\" showFirstColumn=\"0\" showLastColumn=\"0\" "
               'showRowStripes="1" showColumnStripes="0"/></table>')


def test_a_grown_table_and_its_filter_take_the_new_range():
    assert table.with_ref(b(EXCEL_TABLE), "C3:F20", "t") == b(EXCEL_TABLE.replace("C3:F13", "C3:F20"))
    quoted = b(f"<t:table xmlns:t='{MAIN}' ref='A1:B2'><t:autoFilter ref='A1:B2'/></t:table>")
    assert table.with_ref(quoted, "A1:B9", "t") == b(
        f"<t:table xmlns:t='{MAIN}' ref=\"A1:B9\"><t:autoFilter ref=\"A1:B9\"/></t:table>")


# --- what every part refuses ---------------------------------------------------------------------------


@pytest.mark.parametrize("xml, reason", [
    (b'<?xml version="1.0" encoding="ISO-8859-1"?><calcChain xmlns="' + MAIN.encode() + b'"/>', "ISO-8859-1"),
    ("<calcChain/>".encode("utf-16"), "UTF-16"),
    (b'<!DOCTYPE c><calcChain xmlns="' + MAIN.encode() + b'"/>', "type de document"),
    (b"<calcChain", "illisible"),
])  # fmt: skip
def test_a_part_the_patches_cannot_read_as_utf8_xml_is_refused(xml, reason):
    with pytest.raises(Unsupported, match=reason):
        calc_chain.without_sheets(xml, {1})
