"""The report page's inline CSS and JavaScript (the page loads nothing from anywhere).

The script filters the caption list by model and edit class, keeps a count of what is shown, and
un-hides a caption that a link (``#c12``) points at even when the filters hid it.
"""

# Class colours follow the terminal view (cece.render): D red, R magenta, O amber, U cyan, I green.
CSS = """
:root { --d:#d62728; --r:#b0309b; --o:#c78a00; --u:#1b8fa6; --i:#2c9c3f; --fg:#1d232b; --mut:#5d6875;
        --bg:#fff; --line:#dde2e8; --soft:#f5f7fa; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
       background: var(--bg); margin: 0; }
header { background: #1d2a3a; color: #fff; padding: 18px 28px; }
header h1 { margin: 0 0 4px; font-size: 22px; }
header p { margin: 0; color: #c9d3de; }
nav { position: sticky; top: 0; z-index: 2; background: var(--soft); border-bottom: 1px solid var(--line);
      padding: 8px 28px; }
nav a { margin-right: 18px; color: #1d4f91; text-decoration: none; font-weight: 600; }
main { padding: 8px 28px 40px; max-width: 1280px; }
h2 { margin-top: 32px; border-bottom: 2px solid var(--line); padding-bottom: 4px; }
h3 { margin: 20px 0 6px; }
table.metrics { border-collapse: collapse; margin: 6px 0 4px; font-variant-numeric: tabular-nums; }
table.metrics th, table.metrics td { border: 1px solid var(--line); padding: 4px 10px; text-align: right; }
table.metrics th { background: var(--soft); }
table.metrics td:first-child, table.metrics th:first-child { text-align: left; }
p.note { color: var(--mut); font-size: 13px; margin: 2px 0 12px; }
.legend span { display: inline-block; margin-right: 14px; font-size: 13px; }
svg.figure { width: 100%; max-width: 1100px; height: auto; display: block; margin: 8px 0 18px; }
.badge { display: inline-block; padding: 0 8px; border-radius: 10px; color: #fff; font-size: 12px;
         font-weight: 600; background: var(--c, #555); }
.freq { display: grid; grid-template-columns: repeat(auto-fill, minmax(300px, 1fr)); gap: 14px; }
.freq section { border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; }
.freq h4 { margin: 8px 0 2px; font-size: 13px; color: var(--mut); }
.freq ol { margin: 0; padding-left: 22px; font-size: 13px; }
.freq .n { font-weight: 600; }
.freq a, .freq .ex { color: #1d4f91; font-size: 12px; }
.filters { position: sticky; top: 40px; z-index: 1; background: var(--bg); padding: 8px 0;
           border-bottom: 1px solid var(--line); }
.filters label { margin-right: 16px; }
.filters select { font: inherit; padding: 2px 4px; }
#f-count { color: var(--mut); }
ol.captions { list-style: none; padding: 0; margin: 0; }
li.cap { border-bottom: 1px solid var(--line); padding: 8px 4px; }
li.cap:target { background: #fff8d6; }
li.cap .head { font-size: 12px; color: var(--mut); }
li.cap .head code { margin: 0 6px; }
li.cap p { margin: 2px 0; }
li.cap .cf { color: var(--i); font-size: 13px; }
li.cap .miss { color: var(--mut); font-size: 13px; }
mark { background: none; border-radius: 3px; padding: 0 2px; cursor: help; font-weight: 600; }
mark.e-D { background: #fbe3e3; color: var(--d); }
mark.e-R { background: #f6e1f3; color: var(--r); }
mark.e-O { background: #fbefcf; color: var(--o); }
mark.e-U { background: #dcf1f5; color: var(--u); }
.cf del { color: var(--d); } .cf ins { color: #1a7f37; text-decoration: none; font-weight: 600; }
mark.e-unverified { background: none; color: inherit; border-bottom: 1px dotted #888; border-radius: 0; }
mark.e-role-D { color: var(--d); font-weight: 400; border-bottom: 2px dashed var(--d); border-radius: 0; }
mark.e-role-R { color: var(--r); font-weight: 400; border-bottom: 2px dashed var(--r); border-radius: 0; }
.k-D { color: var(--d); } .k-R { color: var(--r); } .k-O { color: var(--o); } .k-U { color: var(--u); }
.k-I { color: var(--i); }
"""

JS = """
(function () {
  var items = Array.prototype.slice.call(document.querySelectorAll("#captions li.cap"));
  var model = document.getElementById("f-model"), cls = document.getElementById("f-cls");
  var count = document.getElementById("f-count");
  function keep(li) {
    var m = model.value, c = cls.value;
    if (m && li.getAttribute("data-model") !== m) return false;
    if (!c) return true;
    if (c === "hal") return li.getAttribute("data-hal") === "1";
    if (c === "ok") return li.getAttribute("data-hal") !== "1";
    return (" " + li.getAttribute("data-cls") + " ").indexOf(" " + c + " ") >= 0;
  }
  function apply() {
    var shown = 0;
    items.forEach(function (li) { var k = keep(li); li.hidden = !k; if (k) shown++; });
    count.textContent = shown + " of " + items.length + " captions";
  }
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (target && target.hidden) { model.value = ""; cls.value = ""; apply(); target.scrollIntoView(); }
  }
  model.addEventListener("change", apply);
  cls.addEventListener("change", apply);
  window.addEventListener("hashchange", reveal);
  apply();
  reveal();
})();
"""
