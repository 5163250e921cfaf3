// The search box of every page: runs, teams and topics, from the site's prebuilt index
// (search-index.js, loaded on first use as a script, which a browser reads from file:// too).
// Every word typed must appear in an entry's name or detail; the first 20 entries are listed.
// The box is made here: without scripts the page has no search box that cannot search.
(function () {
  "use strict";

  var SHOWN = 20;

  function setUp() {
    var box = document.querySelector(".site-search");
    if (!box) { return; }
    box.setAttribute("role", "search");
    var input = document.createElement("input");
    input.type = "search";
    input.id = "site-search";
    input.placeholder = "Search runs, teams, topics";
    input.setAttribute("aria-label", "Search runs, teams and topics");
    input.setAttribute("autocomplete", "off");
    input.setAttribute("aria-controls", "site-search-results");
    var list = document.createElement("ul");
    list.id = "site-search-results";
    list.className = "site-search-results";
    list.hidden = true;
    box.appendChild(input);
    box.appendChild(list);
    var root = box.getAttribute("data-root") || "";
    var requested = false;

    // The index is loaded once; what is typed while it loads is searched when it arrives.
    function load(then) {
      if (window.APPENDIX_SEARCH) { then(); return; }
      if (requested) { return; }
      requested = true;
      var script = document.createElement("script");
      script.src = root + "search-index.js";
      script.onload = show;
      document.head.appendChild(script);
    }

    function show() {
      var index = window.APPENDIX_SEARCH;
      var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      list.textContent = "";
      if (!index || !words.length) { list.hidden = true; return; }
      var found = 0;
      for (var i = 0; i < index.entries.length && found < SHOWN; i += 1) {
        var entry = index.entries[i];
        var text = (entry[1] + " " + entry[2]).toLowerCase();
        if (!words.every(function (word) { return text.indexOf(word) !== -1; })) { continue; }
        var item = document.createElement("li");
        var link = document.createElement("a");
        link.href = root + entry[3];
        var kind = document.createElement("span");
        kind.className = "kind";
        kind.textContent = index.kinds[entry[0]] + " ";
        link.appendChild(kind);
        link.appendChild(document.createTextNode(entry[1] + (entry[2] ? " · " + entry[2] : "")));
        item.appendChild(link);
        list.appendChild(item);
        found += 1;
      }
      if (!found) {
        var none = document.createElement("li");
        none.textContent = "Nothing found";
        list.appendChild(none);
      }
      list.hidden = false;
    }

    input.addEventListener("input", function () { load(show); });
    input.addEventListener("focus", function () { load(show); });
    input.addEventListener("keydown", function (event) {
      if (event.key === "Escape") { input.value = ""; show(); }
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
}());
