// Text reaches a figure drawn in the browser as text. plotly.js reads <b>, <br>, <a href>,
// <span style> and entities in every label, title, legend entry and hover text as markup, so
// AppendixFigures.react escapes every string of a figure (&, <, > as entities, which plotly.js
// shows as the characters) but the hover templates written as markup(...) on purpose.
window.AppendixFigures = (function () {
  "use strict";
  function Markup(template) { this.template = template; }
  function text(value) {
    return String(value).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }
  // The name a figure's point carries (a category of the figure's JSON) as it was written.
  function plain(value) {
    return String(value).replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  }
  function safe(value) {
    if (typeof value === "string") { return text(value); }
    if (value instanceof Markup) { return value.template; }
    if (Array.isArray(value)) { return value.map(safe); }
    if (value && typeof value === "object") {
      var copy = {};
      Object.keys(value).forEach(function (key) { copy[key] = safe(value[key]); });
      return copy;
    }
    return value;
  }
  return {
    markup: function (template) { return new Markup(template); },
    plain: plain,
    text: text,
    react: function (area, data, layout) {
      return Plotly.react(area, safe(data), safe(layout), { displayModeBar: false, responsive: true });
    }
  };
})();

// Draw every figure of the page from its JSON (a <script type="application/json"> element),
// those of a hidden view once it is shown; a measure switch shows one view of each group.
(function () {
  "use strict";
  var LABEL_PX = 13;       // px a category name needs across a bar chart's axis
  var CELL_PX = 5;         // px below which a heatmap's cells cannot be told apart
  // A bar chart with more categories than its width can name (143 runs) is drawn as
  // horizontal bars, one named row each, best first from the top.
  function horizontal(figure, width) {
    var trace = figure.data[0];
    var names = trace.x;
    if (trace.type !== "bar" || names.length * LABEL_PX <= width) { return false; }
    var xaxis = figure.layout.xaxis, yaxis = figure.layout.yaxis;
    figure.data = [Object.assign({}, trace, { x: trace.y, y: names, orientation: "h" })];
    figure.layout.xaxis = Object.assign({}, yaxis, { automargin: true });
    figure.layout.yaxis = Object.assign({}, xaxis, {
      type: "category", autorange: "reversed", tickangle: 0, dtick: 1, automargin: true,
      tickfont: { size: 11 }, showticklabels: true, side: "left" });
    figure.layout.height = names.length * LABEL_PX + 120;
    return true;
  }
  // A matrix of more runs than the width can show as cells is not drawn: a note says where
  // its content is as lists (the top group below, each run page's comparisons).
  function tooLarge(area, figure) {
    var trace = figure.data[0];
    if (trace.type !== "heatmap" || area.clientWidth / trace.x.length >= CELL_PX) { return false; }
    var note = document.createElement("p");
    note.className = "figure-note";
    note.textContent = "The matrix of " + trace.x.length + " runs is too large for this screen " +
      "(seen on a wider one or printed). The runs not significantly different from the top " +
      "run are listed below; each run's page lists the runs it differs from.";
    area.parentNode.insertBefore(note, area);
    area.hidden = true;
    return true;
  }
  function draw(area) {
    if (area.getAttribute("data-drawn") || area.getAttribute("data-skipped")) { return; }
    var figure = JSON.parse(document.getElementById(area.getAttribute("data-figure")).textContent);
    if (figure.data.length && tooLarge(area, figure)) {
      area.setAttribute("data-skipped", "too large");
      return;
    }
    if (figure.data.length && figure.layout.xaxis && figure.layout.xaxis.type === "category") {
      horizontal(figure, area.clientWidth);
    }
    Plotly.newPlot(area, figure.data, figure.layout, { displayModeBar: false, responsive: true });
    area.setAttribute("data-drawn", "true");
    var compare = area.getAttribute("data-compare");
    if (compare) {
      // A cell of the all-pairs matrix opens the comparison of its two runs.
      area.on("plotly_click", function (target) {
        return function (event) {
          var point = event.points && event.points[0];
          if (point && point.x !== point.y) {
            // the matrix's names are escaped for plotly.js: the link names the runs as written
            location.href = target + "#a=" + encodeURIComponent(AppendixFigures.plain(point.y)) +
              "&b=" + encodeURIComponent(AppendixFigures.plain(point.x));
          }
        };
      }(compare));
    }
  }
  function drawVisible() {
    var areas = document.querySelectorAll("[data-figure]");
    for (var i = 0; i < areas.length; i += 1) {
      if (!areas[i].closest("[hidden]")) { draw(areas[i]); }
    }
  }
  function switchTo(value) {
    var views = document.querySelectorAll("[data-measure-view]");
    for (var i = 0; i < views.length; i += 1) {
      views[i].hidden = views[i].getAttribute("data-measure-view") !== value;
    }
    var switches = document.querySelectorAll("select[data-measure-switch]");
    for (var j = 0; j < switches.length; j += 1) { switches[j].value = value; }
    drawVisible();
  }
  var selects = document.querySelectorAll("select[data-measure-switch]");
  for (var k = 0; k < selects.length; k += 1) {
    selects[k].addEventListener("change", function (event) { switchTo(event.target.value); });
  }
  drawVisible();
  // Printed, a figure takes the width of the printed page, not that of the screen: at most
  // PRINT_WIDTH, the printable width of A4 (and of US Letter) at the stylesheet's margins,
  // whatever width the page was laid out at when printing began; back on screen, the width
  // of its place again.
  var PRINT_WIDTH = 680;   // px: 210 mm - 2 x 14 mm = 182 mm = 688 px
  function fitAll(event) {
    var printing = event && (event.type === "beforeprint" || event.matches === true);
    var drawn = document.querySelectorAll("[data-drawn]");
    for (var i = 0; i < drawn.length; i += 1) {
      var width = Math.min(PRINT_WIDTH, drawn[i].clientWidth || PRINT_WIDTH);
      Plotly.relayout(drawn[i], printing ? { width: width } : { width: null, autosize: true });
    }
  }
  var print = window.matchMedia("print");
  if (print.addEventListener) { print.addEventListener("change", fitAll); }
  window.addEventListener("beforeprint", fitAll);
  window.addEventListener("afterprint", fitAll);
})();
