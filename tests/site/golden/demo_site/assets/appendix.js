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
  var NARROW = 600;        // px: below this, a long category axis drops its names
  var MANY_NAMES = 30;
  function draw(area) {
    if (area.getAttribute("data-drawn")) { return; }
    var figure = JSON.parse(document.getElementById(area.getAttribute("data-figure")).textContent);
    var axis = figure.layout.xaxis;
    var names = figure.data.length ? figure.data[0].x : null;
    if (area.clientWidth < NARROW && axis && axis.type === "category" && names &&
        names.length > MANY_NAMES && figure.data[0].type !== "heatmap") {
      // On a phone 143 run names cannot be read; the table below names every bar.
      axis.showticklabels = false;
      figure.layout.margin = Object.assign({}, figure.layout.margin, { b: 40 });
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
  // Printed, a figure takes the width of the printed page, not that of the screen.
  function fitAll() {
    var drawn = document.querySelectorAll("[data-drawn]");
    for (var i = 0; i < drawn.length; i += 1) { Plotly.Plots.resize(drawn[i]); }
  }
  var print = window.matchMedia("print");
  if (print.addEventListener) { print.addEventListener("change", fitAll); }
  window.addEventListener("beforeprint", fitAll);
  window.addEventListener("afterprint", fitAll);
})();
