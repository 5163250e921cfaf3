// Tables with controls (a leaderboard): sort by any column, filter the rows, show each group's
// first row only, highlight a group's rows (a team's runs) and the row named in the URL
// (index.html#run=NAME). The sort, filter, group view and highlighted group are kept in the
// URL's fragment (#sort=Team&order=asc&filter=uog&team=sabir&best=1), so that a link or a
// bookmark shows the same view and the back button steps back through the reader's changes; a
// fragment, not a query, because a page opened from file:// keeps its fragment everywhere.
// The page works without this script: the table is a plain table, best first.
(function () {
  "use strict";

  var counter = 0;

  function columnsOf(text) {
    return text ? text.split(" ").map(Number) : [];
  }

  function cellText(row, index) {
    var cell = row.cells[index];
    return cell ? cell.textContent.trim() : "";
  }

  // The first column (0-based) of a table's trailing numeric columns, which the page marks with
  // the table's class num-from-K (K = that column + 1) rather than each cell's; none: Infinity.
  function numbersFrom(table) {
    var match = /(?:^|\s)num-from-(\d+)(?:\s|$)/.exec(table.className);
    return match ? Number(match[1]) - 1 : Infinity;
  }

  // A column is numeric when every non-empty body cell is marked as a number (class "num", or
  // the column is among those ``from`` marks).
  function isNumeric(rows, index, from) {
    var seen = false;
    for (var i = 0; i < rows.length; i += 1) {
      var cell = rows[i].cells[index];
      if (!cell || cell.textContent.trim() === "") { continue; }
      if (index < from && !cell.classList.contains("num")) { return false; }
      seen = true;
    }
    return seen;
  }

  // Query string of the URL's fragment: #run=NAME&... (names percent-encoded, "+" kept).
  function fragment() {
    var values = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (part) {
      var at = part.indexOf("=");
      if (at > 0) {
        try {
          values[part.slice(0, at)] = decodeURIComponent(part.slice(at + 1));
        } catch (error) {
          values[part.slice(0, at)] = part.slice(at + 1);
        }
      }
    });
    return values;
  }

  // The fragment with ``changes`` applied (an empty value removes its key), other keys kept in
  // their order, so that the run a run page pointed at stays highlighted.
  function withChanges(changes) {
    var values = fragment();
    Object.keys(changes).forEach(function (key) { values[key] = changes[key]; });
    return Object.keys(values).filter(function (key) { return values[key] !== ""; })
      .map(function (key) { return key + "=" + encodeURIComponent(values[key]); }).join("&");
  }

  // A change of the view: a new entry of the history (the back button undoes it), or, while
  // the reader types a filter, the current entry rewritten (one entry per word, not per key).
  function record(changes, replace) {
    var hash = withChanges(changes);
    if (hash === location.hash.replace(/^#/, "")) { return; }
    if (replace && history.replaceState) {
      history.replaceState(history.state, "", hash ? "#" + hash : location.pathname + location.search);
    } else {
      location.hash = hash;
    }
  }

  function enhance(wrap, prefix) {
    var table = wrap.querySelector("table");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var numbersStart = numbersFrom(table);
    var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);
    var names = headers.map(function (th) { return th.textContent.trim(); });
    var noun = wrap.getAttribute("data-noun") || "rows";
    var nounOne = wrap.getAttribute("data-noun-one") || "row";
    var filterColumns = columnsOf(wrap.getAttribute("data-filter-columns"));
    var groupAttr = wrap.getAttribute("data-group-column");
    var groupColumn = groupAttr === null ? null : Number(groupAttr);
    var highlightLabel = wrap.getAttribute("data-highlight-label");
    var rowHeader = Number(wrap.getAttribute("data-row-header") || "0");
    var id = table.id || "table-" + (counter += 1);
    var state = { column: 0, descending: false };
    // The fragment's keys of this table: plain on a page of one such table, else named after
    // the table, so that each table of a page with several keeps its own sort and filter (the
    // judgements page: the topics' table and the runs').
    var keys = {};
    ["sort", "order", "filter", "best", "team"].forEach(function (key) {
      keys[key] = prefix ? id + "." + key : key;
    });

    rows.forEach(function (row, i) { row.setAttribute("data-order", String(i)); });

    // The first row of each group in the table's own order (best first), and the groups.
    var firstOfGroup = {};
    var groups = [];
    if (groupColumn !== null) {
      rows.forEach(function (row) {
        var group = cellText(row, groupColumn);
        if (group && !(group in firstOfGroup)) {
          firstOfGroup[group] = row;
          groups.push(group);
        }
      });
      groups.sort(function (a, b) { return a.toLowerCase().localeCompare(b.toLowerCase()); });
    }

    // Controls, before the scrolling region.
    var controls = document.createElement("div");
    controls.className = "table-controls";
    var filterId = id + "-filter";
    var label = document.createElement("label");
    label.setAttribute("for", filterId);
    label.textContent = wrap.getAttribute("data-filter-label") || "Filter";
    var filter = document.createElement("input");
    filter.type = "search";
    filter.id = filterId;
    filter.setAttribute("aria-controls", id);
    filter.autocomplete = "off";
    controls.appendChild(label);
    controls.appendChild(filter);
    var group = null;
    if (groupColumn !== null) {
      var groupLabel = document.createElement("label");
      group = document.createElement("input");
      group.type = "checkbox";
      group.setAttribute("aria-controls", id);
      groupLabel.appendChild(group);
      groupLabel.appendChild(document.createTextNode(" " + wrap.getAttribute("data-group-label")));
      controls.appendChild(groupLabel);
    }
    var chosen = null;
    if (groupColumn !== null && highlightLabel && groups.length > 1) {
      var chooseLabel = document.createElement("label");
      chooseLabel.setAttribute("for", id + "-highlight");
      chooseLabel.textContent = highlightLabel + " ";
      chosen = document.createElement("select");
      chosen.id = id + "-highlight";
      chosen.setAttribute("aria-controls", id);
      chosen.appendChild(new Option("none", ""));
      groups.forEach(function (name) { chosen.appendChild(new Option(name, name)); });
      chooseLabel.appendChild(chosen);
      controls.appendChild(chooseLabel);
    }
    var status = document.createElement("p");
    status.className = "table-status";
    status.setAttribute("role", "status");
    controls.appendChild(status);
    wrap.parentNode.insertBefore(controls, wrap);

    function count(n) { return n + " " + (n === 1 ? nounOne : noun); }

    function update() {
      var words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
      var team = chosen ? chosen.value : "";
      var shown = 0, marked = 0, markedShown = 0;
      rows.forEach(function (row) {
        var text = filterColumns.map(function (c) { return cellText(row, c); }).join(" ").toLowerCase();
        var visible = words.every(function (word) { return text.indexOf(word) >= 0; });
        if (visible && group && group.checked) {
          var name = cellText(row, groupColumn);
          visible = !name || firstOfGroup[name] === row;
        }
        var mark = team !== "" && cellText(row, groupColumn) === team;
        row.hidden = !visible;
        row.classList.toggle("team-highlight", mark);
        shown += visible ? 1 : 0;
        marked += mark ? 1 : 0;
        markedShown += mark && visible ? 1 : 0;
      });
      var said = shown + " of " + count(rows.length) + " shown";
      if (team !== "") {
        said += "; " + (markedShown === marked ? count(marked) : markedShown + " of " + count(marked)) +
          " of " + team + (marked === 1 ? " is" : " are") + " highlighted";
      }
      status.textContent = said;
    }

    function sortBy(column, descending) {
      var numeric = isNumeric(rows, column, numbersStart);
      var keyed = rows.map(function (row) {
        var text = cellText(row, column);
        var value = numeric ? parseFloat(text) : text.toLowerCase();
        return { row: row, empty: text === "" || (numeric && isNaN(value)), value: value,
                 order: Number(row.getAttribute("data-order")) };
      });
      keyed.sort(function (a, b) {
        if (a.empty !== b.empty) { return a.empty ? 1 : -1; }  // empty cells last, either way
        var by = 0;
        if (!a.empty) {
          by = numeric ? a.value - b.value : a.value.localeCompare(b.value);
          if (descending) { by = -by; }
        }
        return by || a.order - b.order;
      });
      keyed.forEach(function (k) { body.appendChild(k.row); });
      state.column = column;
      state.descending = descending;
      headers.forEach(function (th, index) {
        if (index === column) {
          th.setAttribute("aria-sort", descending ? "descending" : "ascending");
        } else {
          th.removeAttribute("aria-sort");
        }
      });
    }

    headers.forEach(function (th, index) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      while (th.firstChild) { button.appendChild(th.firstChild); }
      var arrow = document.createElement("span");
      arrow.className = "sort-arrow";
      arrow.setAttribute("aria-hidden", "true");
      button.appendChild(arrow);
      th.appendChild(button);
      button.addEventListener("click", function () {
        // Sorted already: reverse. Otherwise numbers highest first, text A to Z.
        var descending = state.column === index ? !state.descending : isNumeric(rows, index, numbersStart);
        sortBy(index, descending);
        // The table's own order (by rank, first column ascending) is no key at all.
        var plain = index === 0 && !descending;
        var changes = {};
        changes[keys.sort] = plain ? "" : names[index];
        changes[keys.order] = plain ? "" : (descending ? "desc" : "asc");
        record(changes, false);
      });
    });
    headers[0].setAttribute("aria-sort", "ascending");  // the table comes in rank order

    var shownRun;
    function highlight() {
      var wanted = fragment().run;
      var found = null;
      rows.forEach(function (row) {
        var match = wanted !== undefined && cellText(row, rowHeader) === wanted;
        row.classList.toggle("highlight", match);
        if (match) {
          row.setAttribute("aria-current", "true");
          found = found || row;
        } else {
          row.removeAttribute("aria-current");
        }
      });
      if (found && found.hidden) {
        filter.value = "";
        if (group) { group.checked = false; }
        update();
      }
      // Scrolled to once when named, not again at each change of the view.
      if (found && wanted !== shownRun) { found.scrollIntoView({ block: "center" }); }
      shownRun = wanted;
    }

    // The view the fragment describes (on load, on the back button, on a link followed).
    function restore() {
      var values = fragment();
      var column = names.indexOf(values[keys.sort] || "");
      if (column >= 0) {
        sortBy(column, values[keys.order] !== "asc");
      } else if (state.column !== 0 || state.descending) {
        sortBy(0, false);
      }
      // A filter being typed keeps its spaces: only a different one is replaced.
      var words = values[keys.filter] || "";
      if (filter.value.trim() !== words) { filter.value = words; }
      if (group) { group.checked = values[keys.best] === "1"; }
      if (chosen) {
        var team = values[keys.team] || "";
        chosen.value = groups.indexOf(team) >= 0 ? team : "";
      }
      update();
      highlight();
    }

    filter.addEventListener("input", function () {
      update();
      var changes = {};
      changes[keys.filter] = filter.value.trim();
      record(changes, true);
    });
    if (group) {
      group.addEventListener("change", function () {
        update();
        var changes = {};
        changes[keys.best] = group.checked ? "1" : "";
        record(changes, false);
      });
    }
    if (chosen) {
      chosen.addEventListener("change", function () {
        update();
        var changes = {};
        changes[keys.team] = chosen.value;
        record(changes, false);
      });
    }
    window.addEventListener("hashchange", restore);
    restore();
  }

  var wraps = document.querySelectorAll("[data-table-controls]");
  for (var i = 0; i < wraps.length; i += 1) { enhance(wraps[i], wraps.length > 1); }
})();
