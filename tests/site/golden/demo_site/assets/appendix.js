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
            location.href = target + "#a=" + encodeURIComponent(point.y) +
              "&b=" + encodeURIComponent(point.x);
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
