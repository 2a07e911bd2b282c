// Himiko's game page: replay (slider, buttons, arrow keys), zoom and pan (buttons, pinch,
// drag), local times, card texts on tap. Texts come from the page; nothing is built as HTML.
"use strict";
(function () {
  function localTimes() {
    document.querySelectorAll("time.local[data-utc]").forEach(function (el) {
      var when = new Date(Number(el.getAttribute("data-utc")) * 1000);
      el.setAttribute("datetime", when.toISOString());
      el.textContent = when.toLocaleString(document.documentElement.lang || undefined, {
        dateStyle: "medium", timeStyle: "short"
      });
    });
  }

  function cards() {
    // one listener for every card button, those the replay puts in the players' state too
    var box = document.getElementById("card-text");
    document.addEventListener("click", function (e) {
      var el = e.target instanceof Element ? e.target.closest("button.card") : null;
      if (!el || !box) { return; }
      var card = el.getAttribute("data-card") || "";
      var same = !box.hidden && box.getAttribute("data-for") === card;
      box.textContent = el.getAttribute("data-text") || "";  // the text names the card
      box.setAttribute("data-for", card);
      box.hidden = same;
    });
  }

  // The players as they were after step n: scores, whose turn, each one's state, the cards
  // on the table (the page's own markup, rebuilt with textContent only).
  function players(data, n, last) {
    var step = data.steps[n];
    if (!step.scores) { return; }
    document.querySelectorAll("tr[data-seat]").forEach(function (row) {
      var seat = Number(row.getAttribute("data-seat"));
      var score = row.querySelector("td.num");
      if (score && step.scores[seat] !== undefined) { score.textContent = step.scores[seat]; }
      var tag = row.querySelector(".tag.turn");
      var turn = step.turn === seat;
      row.classList.toggle("current", turn);
      if (tag) { tag.hidden = !turn; tag.textContent = data.turns[step.turnText]; }
      var win = row.querySelector(".tag.win");
      if (win) { win.hidden = n !== last; }
    });
    // what holds only from a step (a resignation) or until one (a note the end replaced)
    document.querySelectorAll("section.players [data-from], section.players [data-until]")
      .forEach(function (el) {
        var from = el.getAttribute("data-from"), until = el.getAttribute("data-until");
        el.hidden = (from !== null && n < Number(from)) || (until !== null && n > Number(until));
      });
    document.querySelectorAll("table.state[data-seat]").forEach(function (table) {
      var block = data.blocks[step.seats[Number(table.getAttribute("data-seat"))]] || [];
      var body = document.createElement("tbody");
      block.forEach(function (number) {
        var row = data.rows[number], tr = document.createElement("tr");
        var th = document.createElement("th"), td = document.createElement("td");
        th.textContent = row[0];
        row[1].forEach(function (value, i) {
          // as the server writes it: "a, b"; a card keeps its comma on its line
          if (i > 0) { td.appendChild(document.createTextNode(" ")); }
          var comma = i < row[1].length - 1 ? "," : "";
          var item = cardOrText(value, data.cards);
          if (item.nodeType === Node.TEXT_NODE) {
            td.appendChild(document.createTextNode(value + comma));
          } else {
            var held = document.createElement("span");
            held.className = "held";
            held.appendChild(item);
            held.appendChild(document.createTextNode(comma));
            td.appendChild(held);
          }
        });
        tr.appendChild(th); tr.appendChild(td); body.appendChild(tr);
      });
      table.replaceChildren(body);
    });
    var hand = data.hands[step.hand] || [];
    document.querySelectorAll("li[data-card]").forEach(function (li) {
      li.hidden = hand.indexOf(li.getAttribute("data-card")) < 0;
    });
    var table = document.querySelector("section.cards");
    if (table) { table.hidden = hand.length === 0; }
    document.querySelectorAll("ol.entries li[value]").forEach(function (li) {
      var here = Number(li.getAttribute("value")) === n;
      li.classList.toggle("shown", here);
      if (here) { li.setAttribute("aria-current", "step"); } else { li.removeAttribute("aria-current"); }
    });
  }

  // A value of a player's state; a card (cards: [name, text] by code) is a button labelled
  // by its name, its text on hover and tap, its code in data-card (as the server writes it).
  function cardOrText(value, cards) {
    if (!Object.prototype.hasOwnProperty.call(cards, value)) {
      return document.createTextNode(value);
    }
    var button = document.createElement("button");
    button.type = "button";
    button.className = "card";
    button.setAttribute("data-card", value);
    button.title = cards[value][1];
    button.setAttribute("data-text", cards[value][1]);
    button.textContent = cards[value][0];
    return button;
  }

  function zoom(img, viewport) {
    var scale = 1, x = 0, y = 0, pointers = new Map(), pinch = null, drag = null;
    function apply() {
      var w = viewport.clientWidth, h = viewport.clientHeight;
      x = Math.min(0, Math.max(w - w * scale, x));
      y = Math.min(0, Math.max(h - h * scale, y));
      img.style.transform = "translate(" + x + "px," + y + "px) scale(" + scale + ")";
      viewport.classList.toggle("zoomed", scale > 1);
      viewport.setAttribute("data-scale", scale.toFixed(2));
    }
    function zoomAt(factor, cx, cy) {
      var next = Math.min(6, Math.max(1, scale * factor));
      x = cx - (cx - x) * (next / scale);
      y = cy - (cy - y) * (next / scale);
      scale = next;
      apply();
    }
    function centre() { return [viewport.clientWidth / 2, viewport.clientHeight / 2]; }
    document.getElementById("zoom-in").addEventListener("click", function () {
      var c = centre(); zoomAt(1.5, c[0], c[1]);
    });
    document.getElementById("zoom-out").addEventListener("click", function () {
      var c = centre(); zoomAt(1 / 1.5, c[0], c[1]);
    });
    document.getElementById("zoom-reset").addEventListener("click", function () {
      scale = 1; x = 0; y = 0; apply();
    });
    function local(e) {
      var r = viewport.getBoundingClientRect();
      return [e.clientX - r.left, e.clientY - r.top];
    }
    viewport.addEventListener("pointerdown", function (e) {
      pointers.set(e.pointerId, local(e));
      viewport.setPointerCapture(e.pointerId);
      if (pointers.size === 2) {
        var p = Array.from(pointers.values());
        pinch = { d: Math.hypot(p[0][0] - p[1][0], p[0][1] - p[1][1]) };
        drag = null;
      } else if (pointers.size === 1) {
        drag = local(e);
      }
    });
    viewport.addEventListener("pointermove", function (e) {
      if (!pointers.has(e.pointerId)) { return; }
      var here = local(e);
      pointers.set(e.pointerId, here);
      if (pinch && pointers.size === 2) {
        var p = Array.from(pointers.values());
        var d = Math.hypot(p[0][0] - p[1][0], p[0][1] - p[1][1]);
        if (pinch.d > 0) {
          zoomAt(d / pinch.d, (p[0][0] + p[1][0]) / 2, (p[0][1] + p[1][1]) / 2);
        }
        pinch.d = d;
      } else if (drag && scale > 1) {
        x += here[0] - drag[0]; y += here[1] - drag[1]; drag = here; apply();
      }
    });
    function up(e) {
      pointers.delete(e.pointerId);
      if (pointers.size < 2) { pinch = null; }
      drag = pointers.size === 1 ? Array.from(pointers.values())[0] : null;
    }
    viewport.addEventListener("pointerup", up);
    viewport.addEventListener("pointercancel", up);
    viewport.addEventListener("wheel", function (e) {
      if (!e.ctrlKey) { return; }  // a trackpad pinch; a plain wheel scrolls the page
      e.preventDefault();
      var c = local(e); zoomAt(e.deltaY < 0 ? 1.15 : 1 / 1.15, c[0], c[1]);
    }, { passive: false });
    window.addEventListener("resize", apply);
    apply();
  }

  // The history lists the actions played up to the step shown (each entry's value is the
  // step it led to), as the rest of the page does; before the first, it says none was.
  function history(n) {
    var entries = document.querySelectorAll("section.log li[value]");
    var listed = 0;
    for (var i = 0; i < entries.length; i++) {
      entries[i].hidden = Number(entries[i].getAttribute("value")) > n;
      listed += entries[i].hidden ? 0 : 1;
    }
    var none = document.querySelector("section.log .log-none");
    if (none) { none.hidden = listed > 0; }
  }

  function replay(img, data) {
    var slider = document.getElementById("slider");
    var label = document.getElementById("step-label");
    var action = document.getElementById("action");
    var template = img.getAttribute("data-src");
    var last = data.steps.length - 1;
    function show(n) {
      n = Math.max(0, Math.min(last, n));
      slider.value = String(n);
      img.src = template.replace("{v}", String(n));
      img.alt = data.alt.replace("{n}", String(n));
      label.textContent = data.steps[n].label;
      action.textContent = data.steps[n].text;
      document.getElementById("prev").disabled = n === 0;
      document.getElementById("next").disabled = n === last;
      players(data, n, last);
      history(n);
    }
    function current() { return Number(slider.value); }
    slider.addEventListener("input", function () { show(current()); });
    document.getElementById("prev").addEventListener("click", function () { show(current() - 1); });
    document.getElementById("next").addEventListener("click", function () { show(current() + 1); });
    document.addEventListener("keydown", function (e) {
      if (e.target === slider || e.altKey || e.ctrlKey || e.metaKey) { return; }
      if (e.key === "ArrowLeft") { e.preventDefault(); show(current() - 1); }
      if (e.key === "ArrowRight") { e.preventDefault(); show(current() + 1); }
    });
    document.getElementById("replay").hidden = false;
    show(last);
  }

  document.addEventListener("DOMContentLoaded", function () {
    localTimes();
    cards();
    var img = document.getElementById("board");
    var viewport = document.getElementById("viewport");
    var steps = document.getElementById("steps");
    if (img && viewport) { zoom(img, viewport); }
    if (img && steps) { replay(img, JSON.parse(steps.textContent)); }
  });
})();
