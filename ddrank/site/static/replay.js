// Step through a table's play, card by card: the cards still held in each hand, the trick on the
// table, tricks won, double dummy's count after the card, and at a marked mistake the DD value of
// every card that could be played there. The data sits in the page (<script type=
// "application/json" class="replay-data">, written by ddrank.site.replay); nothing is fetched, so
// the page works from file://.
(function () {
  "use strict";
  var SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  var RANKS = "23456789TJQKA";
  var SEATS = "NESW";
  var NAMES = { N: "North", E: "East", S: "South", W: "West" };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function cardNode(card) {
    var span = el("span", "card");
    var suit = el("span", card[0] === "H" || card[0] === "D" ? "red" : "black", SUITS[card[0]]);
    span.appendChild(suit);
    span.appendChild(document.createTextNode(card.slice(1) === "T" ? "10" : card.slice(1)));
    return span;
  }
  function beats(a, b, lead, trump) {
    // does card a beat card b (b the best so far) in a trick led in suit `lead`?
    if (a[0] === b[0]) { return RANKS.indexOf(a[1]) > RANKS.indexOf(b[1]); }
    return a[0] === trump && trump !== "N";
  }

  function Replay(box, data) {
    this.box = box;
    this.d = data;
    this.k = 0; // cards played so far
    this.build();
    this.show();
  }
  Replay.prototype.build = function () {
    var self = this;
    var controls = el("div", "controls");
    var buttons = [["\u00ab", "Start", function () { self.go(0); }],
      ["\u2039", "Previous card", function () { self.go(self.k - 1); }],
      ["\u203a", "Next card", function () { self.go(self.k + 1); }],
      ["\u00bb", "End", function () { self.go(self.d.cards.length); }]];
    buttons.forEach(function (b) {
      var btn = el("button", "", b[0]);
      btn.type = "button";
      btn.title = b[1];
      btn.setAttribute("aria-label", b[1]);
      btn.addEventListener("click", b[2]);
      controls.appendChild(btn);
    });
    this.counter = el("span", "counter");
    controls.appendChild(this.counter);
    this.box.appendChild(controls);
    this.view = el("div", "table-view");
    this.hands = {};
    this.spots = {};
    var trick = el("div", "trick");
    SEATS.split("").forEach(function (s) {
      var h = el("div", "rh " + s);
      self.hands[s] = h;
      self.view.appendChild(h);
      var spot = el("div", s);
      self.spots[s] = spot;
      trick.appendChild(spot);
    });
    this.view.appendChild(trick);
    this.box.appendChild(this.view);
    this.status = el("div", "status-line");
    this.box.appendChild(this.status);
    this.box.tabIndex = 0;
    this.box.addEventListener("keydown", function (e) {
      if (e.key === "ArrowRight") { self.go(self.k + 1); e.preventDefault(); }
      if (e.key === "ArrowLeft") { self.go(self.k - 1); e.preventDefault(); }
    });
  };
  Replay.prototype.go = function (k) {
    this.k = Math.max(0, Math.min(this.d.cards.length, k));
    this.show();
  };
  Replay.prototype.state = function () {
    // who won each completed trick, the current trick's cards, who is to play next
    var d = this.d, won = { NS: 0, EW: 0 }, trick = [], leader = d.seats[0];
    for (var i = 0; i < this.k; i += 1) {
      trick.push([d.seats[i], d.cards[i]]);
      if (trick.length === 4) {
        var best = trick[0];
        for (var j = 1; j < 4; j += 1) {
          if (beats(trick[j][1], best[1], trick[0][1][0], d.trump)) { best = trick[j]; }
        }
        won["NS".indexOf(best[0]) >= 0 ? "NS" : "EW"] += 1;
        leader = best[0];
        if (i + 1 < this.k) { trick = []; }
      }
    }
    var next = this.k < d.cards.length ? d.seats[this.k] : null;
    return { won: won, trick: trick, next: next, leader: leader };
  };
  Replay.prototype.show = function () {
    var self = this, d = this.d, played = {};
    for (var i = 0; i < this.k; i += 1) { played[d.cards[i]] = true; }
    var st = this.state();
    SEATS.split("").forEach(function (s) {
      var h = self.hands[s];
      h.textContent = "";
      h.className = "rh " + s + (st.next === s ? " to-play" : "");
      h.appendChild(el("div", "seat", NAMES[s] + (s === d.declarer ? " (declarer)" : "")));
      "SHDC".split("").forEach(function (suit) {
        var line = el("div", "suit");
        line.appendChild(el("span", suit === "H" || suit === "D" ? "red" : "black", SUITS[suit] + " "));
        var left = d.hands[s].filter(function (c) { return c[0] === suit && !played[c]; });
        line.appendChild(document.createTextNode(left.map(function (c) {
          return c.slice(1) === "T" ? "10" : c.slice(1);
        }).join(" ") || "\u2014"));
        h.appendChild(line);
      });
      self.spots[s].textContent = "";
    });
    st.trick.forEach(function (pc, n) {
      var node = cardNode(pc[1]);
      if (n === st.trick.length - 1) { node.className += " last"; }
      self.spots[pc[0]].appendChild(node);
    });
    this.counter.textContent = "Card " + this.k + " of " + d.cards.length;
    var parts = ["Tricks: NS " + st.won.NS + ", EW " + st.won.EW];
    if (d.dd) { parts.push("declarer's tricks double dummy: " + d.dd[this.k]); }
    this.status.textContent = parts.join(" \u00b7 ");
    var mark = d.marks[String(this.k - 1)];
    if (mark) {
      var note = el("span", "mistake-note", " \u00b7 the card just played cost " + mark.tricks +
        " trick" + (mark.tricks === 1 ? "" : "s") + " double dummy ");
      var link = el("a", "", "(why)");
      link.href = "#" + mark.anchor + "-note";
      note.appendChild(link);
      this.status.appendChild(note);
    }
    var ahead = d.marks[String(this.k)];
    if (ahead && ahead.values.length) {
      var lv = el("div", "legal-values");
      lv.appendChild(document.createTextNode("Here, declarer's tricks double dummy after each card: "));
      ahead.values.forEach(function (ct) {
        var item = el("span", "lv" + (ct[0] === d.cards[self.k] ? " played" : ""));
        item.appendChild(cardNode(ct[0]));
        item.appendChild(document.createTextNode(" " + ct[1]));
        lv.appendChild(item);
      });
      this.status.appendChild(lv);
    }
  };

  Array.prototype.forEach.call(document.querySelectorAll(".replay"), function (box) {
    var script = box.querySelector("script.replay-data");
    if (!script) { return; }
    box.replay = new Replay(box, JSON.parse(script.textContent));
  });
}());
