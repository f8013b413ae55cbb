// Filter the player table as the user types (no library, works from file://).
(function () {
  "use strict";
  var box = document.getElementById("player-search");
  var table = document.getElementById("player-table");
  var count = document.getElementById("player-count");
  if (!box || !table) { return; }
  var rows = Array.prototype.slice.call(table.tBodies[0].rows);
  function apply() {
    var q = box.value.trim().toLowerCase();
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
