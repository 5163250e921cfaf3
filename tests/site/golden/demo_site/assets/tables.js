// Tables with controls (a leaderboard): sort by any column, filter the rows, show each group's
// first row only, and highlight the row named in the URL (index.html#run=NAME).
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

  // A column is numeric when every non-empty body cell is marked as a number (class "num").
  function isNumeric(rows, index) {
    var seen = false;
    for (var i = 0; i < rows.length; i += 1) {
      var cell = rows[i].cells[index];
      if (!cell || cell.textContent.trim() === "") { continue; }
      if (!cell.classList.contains("num")) { return false; }
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

  function enhance(wrap) {
    var table = wrap.querySelector("table");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);
    var noun = wrap.getAttribute("data-noun") || "rows";
    var filterColumns = columnsOf(wrap.getAttribute("data-filter-columns"));
    var groupAttr = wrap.getAttribute("data-group-column");
    var groupColumn = groupAttr === null ? null : Number(groupAttr);
    var rowHeader = Number(wrap.getAttribute("data-row-header") || "0");
    var id = table.id || "table-" + (counter += 1);
    var state = { column: 0, descending: false };

    rows.forEach(function (row, i) { row.setAttribute("data-order", String(i)); });

    // The first row of each group in the table's own order (best first).
    var firstOfGroup = {};
    if (groupColumn !== null) {
      rows.forEach(function (row) {
        var group = cellText(row, groupColumn);
        if (group && !(group in firstOfGroup)) { firstOfGroup[group] = row; }
      });
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
    var status = document.createElement("p");
    status.className = "table-status";
    status.setAttribute("role", "status");
    controls.appendChild(status);
    wrap.parentNode.insertBefore(controls, wrap);

    function update() {
      var words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
      var shown = 0;
      rows.forEach(function (row) {
        var text = filterColumns.map(function (c) { return cellText(row, c); }).join(" ").toLowerCase();
        var visible = words.every(function (word) { return text.indexOf(word) >= 0; });
        if (visible && group && group.checked) {
          var name = cellText(row, groupColumn);
          visible = !name || firstOfGroup[name] === row;
        }
        row.hidden = !visible;
        shown += visible ? 1 : 0;
      });
      status.textContent = shown + " of " + rows.length + " " + noun + " shown";
    }

    function sortBy(column, descending) {
      var numeric = isNumeric(rows, column);
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
        var descending = state.column === index ? !state.descending : isNumeric(rows, index);
        sortBy(index, descending);
      });
    });
    headers[0].setAttribute("aria-sort", "ascending");  // the table comes in rank order

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
      if (found) { found.scrollIntoView({ block: "center" }); }
    }

    filter.addEventListener("input", update);
    if (group) { group.addEventListener("change", update); }
    window.addEventListener("hashchange", highlight);
    update();
    highlight();
  }

  var wraps = document.querySelectorAll("[data-table-controls]");
  for (var i = 0; i < wraps.length; i += 1) { enhance(wraps[i]); }
})();
