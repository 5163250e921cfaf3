// Draw every figure of the page from its JSON (a <script type="application/json"> element),
// those of a hidden view once it is shown; a measure switch shows one view of each group.
(function () {
  "use strict";
  function draw(area) {
    if (area.getAttribute("data-drawn")) { return; }
    var figure = JSON.parse(document.getElementById(area.getAttribute("data-figure")).textContent);
    Plotly.newPlot(area, figure.data, figure.layout, { displayModeBar: false, responsive: true });
    area.setAttribute("data-drawn", "true");
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
