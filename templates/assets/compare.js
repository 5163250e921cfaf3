// Run versus run: draw the pair of compare.html#a=RUN&b=RUN from the task's compare-data.js
// (window.APPENDIX_RUN_PAIRS: per-topic scores and every tested pair, computed by the build).
// Nothing is computed here but differences of the shown per-topic values and their order.
(function () {
  "use strict";
  var data = window.APPENDIX_RUN_PAIRS;
  // Figures drawn with their names as text (appendix.js): never Plotly.react directly.
  var figures = window.AppendixFigures;
  var MOST = 10;           // rows of the "differ most" table
  var RUN_COLOUR = "#1f4e9c";
  var OTHER_COLOUR = "#a1261b";
  var TIE_COLOUR = "#5c5c5c";
  var pickA = document.getElementById("run-a");
  var pickB = document.getElementById("run-b");
  var pickMeasure = document.getElementById("pair-measure");
  if (!data || !pickA || !pickB) { return; }
  var titled = data.topicTitles.some(Boolean);
  var index = {};
  data.runs.forEach(function (run, i) { index[run] = i; });

  function fragment() {
    var values = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (part) {
      var at = part.indexOf("=");
      if (at > 0) {
        try { values[part.slice(0, at)] = decodeURIComponent(part.slice(at + 1)); }
        catch (error) { values[part.slice(0, at)] = part.slice(at + 1); }
      }
    });
    return values;
  }

  function fixed(value) { return value === null || value === undefined ? "" : value.toFixed(4); }
  function signed(value) {
    return value === null || value === undefined ? "" : (value >= 0 ? "+" : "") + value.toFixed(4);
  }
  function pValue(value) {
    if (value === null || value === undefined) { return ""; }
    return value < 0.0001 ? value.toExponential(1) : value.toFixed(4);
  }

  function cell(row, text, options) {
    var node = document.createElement(options && options.header ? "th" : "td");
    if (options && options.header) { node.scope = "row"; }
    if (options && options.numeric) { node.className = "num"; }
    if (options && options.href) {
      var link = document.createElement("a");
      link.href = options.href;
      link.textContent = text;
      node.appendChild(link);
    } else {
      node.textContent = text;
    }
    row.appendChild(node);
  }

  // The name a measure is shown under (its display name; the official one in the data).
  function label(measure) { return (data.labels && data.labels[measure]) || measure; }

  // The tested pair (a, b) of a measure, as a - b: flipped when it was stored as (b, a).
  function pairTest(measure, a, b) {
    var tests = data.tests[measure];
    if (!tests) { return null; }
    for (var k = 0; k < tests.a.length; k += 1) {
      var same = tests.a[k] === a && tests.b[k] === b;
      if (same || (tests.a[k] === b && tests.b[k] === a)) {
        var sign = same ? 1 : -1;
        return { diff: sign * tests.diff[k],
                 low: same ? tests.low[k] : -tests.high[k],
                 high: same ? tests.high[k] : -tests.low[k],
                 p: tests.p[k], adjusted: tests.adjusted[k], significant: tests.significant[k] };
      }
    }
    return null;
  }

  function drawTests(a, b) {
    var body = document.querySelector("#pair-tests tbody");
    body.textContent = "";
    data.measures.forEach(function (measure) {
      var row = document.createElement("tr");
      var means = data.means[measure];
      var test = pairTest(measure, a, b);
      cell(row, label(measure) + (measure === data.official ? " (official)" : ""), { header: true });
      cell(row, fixed(means[a]), { numeric: true });
      cell(row, fixed(means[b]), { numeric: true });
      if (test) {
        cell(row, signed(test.diff), { numeric: true });
        cell(row, "[" + signed(test.low) + ", " + signed(test.high) + "]", { numeric: true });
        cell(row, pValue(test.p), { numeric: true });
        cell(row, pValue(test.adjusted), { numeric: true });
        cell(row, test.significant ? "yes" : "no");
      } else {
        ["", "", "", "", "not tested"].forEach(function (text, k) { cell(row, text, { numeric: k < 4 }); });
      }
      body.appendChild(row);
    });
    var note = document.getElementById("pair-note");
    note.textContent = !data.test ? "No significance test is configured for this task." :
      "Means over all topics; A − B is the mean per-topic difference, with its " +
      Math.round(data.test.ciLevel * 100) + "% bootstrap confidence interval. Significant: " +
      "adjusted p at most alpha = " + data.test.alpha + "." +
      (data.test.familyWise ? " " + data.test.name + " gives family-wise p-values: the " +
       "adjusted p is the p-value." : "");
  }

  function differences(measure, a, b) {
    var scores = data.scores[measure];
    var rows = [];
    data.topics.forEach(function (topic, k) {
      var x = scores[a][k], y = scores[b][k];
      if (x !== null && y !== null) { rows.push({ k: k, topic: topic, a: x, b: y, d: x - y }); }
    });
    return rows;
  }

  function colour(d) { return d > 0 ? RUN_COLOUR : (d < 0 ? OTHER_COLOUR : TIE_COLOUR); }

  function layout(xTitle, yTitle, extra) {
    var base = {
      margin: { l: 60, r: 20, t: 20, b: 60 }, height: 380,
      font: { family: "system-ui, sans-serif", size: 13, color: "#222222" },
      paper_bgcolor: "#ffffff", plot_bgcolor: "#ffffff", showlegend: false,
      xaxis: { title: { text: xTitle }, gridcolor: "#dddddd", zerolinecolor: "#999999" },
      yaxis: { title: { text: yTitle }, gridcolor: "#dddddd", zerolinecolor: "#999999" }
    };
    return Object.assign(base, extra || {});
  }

  function drawFigures(measure, a, b, rows) {
    var name = label(measure);
    var nameA = data.runs[a], nameB = data.runs[b];
    var top = 0;
    rows.forEach(function (r) { top = Math.max(top, r.a, r.b); });
    top = top > 1 ? top * 1.05 : 1.02;
    var scatter = [
      { type: "scatter", mode: "lines", x: [0, top], y: [0, top], hoverinfo: "skip",
        line: { color: "#999999", dash: "dot", width: 1 } },
      { type: "scatter", mode: "markers", x: rows.map(function (r) { return r.a; }),
        y: rows.map(function (r) { return r.b; }), text: rows.map(function (r) { return r.topic; }),
        hovertemplate: figures.markup("topic %{text}<br>A %{x:.4f}<br>B %{y:.4f}<extra></extra>"),
        marker: { size: 8, color: rows.map(function (r) { return colour(r.d); }) } }
    ];
    var square = layout(name + " of A (" + nameA + ")", name + " of B (" + nameB + ")");
    square.xaxis.range = [0, top];
    square.yaxis.range = [0, top];
    var scatterArea = document.getElementById("pair-scatter");
    figures.react(scatterArea, scatter, square);
    var better = rows.filter(function (r) { return r.d > 0; }).length;
    var worse = rows.filter(function (r) { return r.d < 0; }).length;
    scatterArea.setAttribute("aria-label", "Scatter plot of " + name + " per topic, run " +
      nameA + " across and run " + nameB + " up: " + nameA + " higher on " + better +
      " topics, " + nameB + " higher on " + worse + ", equal on " +
      (rows.length - better - worse) + ". The largest differences are in the table below.");

    var sorted = rows.slice().sort(function (x, y) { return y.d - x.d || x.k - y.k; });
    var bars = [{ type: "bar", x: sorted.map(function (r) { return r.topic; }),
      y: sorted.map(function (r) { return r.d; }),
      marker: { color: sorted.map(function (r) { return colour(r.d); }) },
      hovertemplate: figures.markup("topic %{x}<br>A − B %{y:+.4f}<extra></extra>") }];
    var barLayout = layout("Topic (sorted by the difference)", name + ": A − B");
    barLayout.xaxis.type = "category";
    barLayout.xaxis.showticklabels = sorted.length <= 60;
    var differenceArea = document.getElementById("pair-differences");
    figures.react(differenceArea, bars, barLayout);
    differenceArea.setAttribute("aria-label", "Bar chart of " + name + " of " + nameA +
      " minus " + nameB + " per topic over " + rows.length + " topics, largest first.");
  }

  function drawTopics(rows) {
    var body = document.querySelector("#pair-topics tbody");
    body.textContent = "";
    rows.slice().sort(function (x, y) { return Math.abs(y.d) - Math.abs(x.d) || x.k - y.k; })
      .slice(0, MOST).forEach(function (r) {
        var row = document.createElement("tr");
        cell(row, r.topic, { header: true, href: data.topicPages[r.k] });
        if (titled) { cell(row, data.topicTitles[r.k]); }
        cell(row, fixed(r.a), { numeric: true });
        cell(row, fixed(r.b), { numeric: true });
        cell(row, signed(r.d), { numeric: true });
        body.appendChild(row);
      });
  }

  function links(a, b) {
    var holder = document.getElementById("pair-links");
    holder.textContent = "";
    [["A", a], ["B", b]].forEach(function (side, k) {
      if (k) { holder.appendChild(document.createTextNode(" · ")); }
      var link = document.createElement("a");
      link.href = data.runPages[side[1]];
      link.textContent = "Run page of " + data.runs[side[1]];
      holder.appendChild(document.createTextNode(side[0] + ": "));
      holder.appendChild(link);
    });
  }

  function draw() {
    var a = index[pickA.value], b = index[pickB.value];
    var measure = pickMeasure ? pickMeasure.value : data.official;
    document.getElementById("pair-a").textContent = data.runs[a];
    document.getElementById("pair-b").textContent = data.runs[b];
    document.getElementById("pair").hidden = false;
    links(a, b);
    drawTests(a, b);
    var rows = differences(measure, a, b);
    drawFigures(measure, a, b, rows);
    drawTopics(rows);
    document.getElementById("pair-status").textContent =
      "Showing run " + data.runs[a] + " against run " + data.runs[b] + " on " + label(measure) + ".";
  }

  function choose() {
    var wanted = fragment();
    if (wanted.a in index) { pickA.value = wanted.a; }
    if (wanted.b in index) { pickB.value = wanted.b; }
    if (pickMeasure && data.measures.indexOf(wanted.measure) >= 0) { pickMeasure.value = wanted.measure; }
    if (pickA.value === pickB.value) {
      pickB.value = data.runs[index[pickA.value] === 0 ? 1 : 0];
    }
    draw();
  }

  function remember() {
    var hash = "#a=" + encodeURIComponent(pickA.value) + "&b=" + encodeURIComponent(pickB.value);
    if (pickMeasure && pickMeasure.value !== data.official) {
      hash += "&measure=" + encodeURIComponent(pickMeasure.value);
    }
    history.replaceState(null, "", hash);
    draw();
  }

  [pickA, pickB, pickMeasure].forEach(function (pick) {
    if (pick) { pick.addEventListener("change", remember); }
  });
  document.getElementById("swap-runs").addEventListener("click", function () {
    var a = pickA.value;
    pickA.value = pickB.value;
    pickB.value = a;
    remember();
  });
  window.addEventListener("hashchange", choose);
  choose();
})();
