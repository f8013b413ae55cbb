// Filter the player table as the user types (no library, works from file://). The query is folded
// as ddrank.text.search_key folds each row's name (data-name): accents dropped (NFKD), the
// letters NFKD keeps spelled out (the page's #search-letters table, ddrank.text.SPECIAL_LETTERS),
// case folded, spaces collapsed. So "remi" finds "Rémi" and "lukasz" finds "Łukasz".
(function () {
  "use strict";
  var box = document.getElementById("player-search");
  var table = document.getElementById("player-table");
  var count = document.getElementById("player-count");
  if (!box || !table) { return; }
  var letters = {};
  var spec = document.getElementById("search-letters");
  if (spec) { letters = JSON.parse(spec.textContent); }
  function key(text) {
    var spelled = Array.prototype.map.call(text, function (ch) {
      return Object.prototype.hasOwnProperty.call(letters, ch) ? letters[ch] : ch;
    }).join("");
    return spelled.normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
      .toLowerCase().split(/\s+/).filter(Boolean).join(" ");
  }
  var rows = Array.prototype.slice.call(table.tBodies[0].rows);
  function apply() {
    var q = key(box.value);
    var shown = 0;
    rows.forEach(function (row) {
      var hit = q === "" || row.getAttribute("data-name").indexOf(q) !== -1;
      row.hidden = !hit;
      if (hit) { shown += 1; }
    });
    count.textContent = shown + " of " + rows.length + " shown";
  }
  box.addEventListener("input", apply);
  apply();
}());
