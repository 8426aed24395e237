// The replay viewer: swaps the drawn positions (embedded once as JSON) on step/play/slider.
// Text from the page data is only ever set with textContent; drawings are shown through an
// <img> (an SVG in an image cannot run scripts). It sizes the board (and, when the side column
// stands beside it, that column) to fit the window, and never scrolls the page: only the move
// list scrolls, within its own box. Once the first drawing has loaded, the viewer gets the
// class "ready" (tests wait for it).
(function () {
  "use strict";
  var dataNode = document.getElementById("replay-data");
  var board = document.getElementById("board");
  if (!dataNode || !board) { return; }
  var data = JSON.parse(dataNode.textContent);
  var frames = data.frames, svgs = data.svgs, names = data.players;
  var slider = document.getElementById("slider");
  var counter = document.getElementById("counter");
  var statusLine = document.getElementById("status");
  var scoreLine = document.getElementById("score");
  var errorLine = document.getElementById("error");
  var positionText = document.getElementById("position-text");
  var noBoard = document.getElementById("no-board");
  var playButton = document.getElementById("play");
  var speed = document.getElementById("speed");
  var rows = document.querySelectorAll("#moves tbody tr");
  var viewer = document.getElementById("viewer");
  var boardBox = document.getElementById("board-box");
  var side = document.getElementById("side");
  var controls = side.querySelector(".controls");
  var movesBox = document.getElementById("moves-box");
  var movesHead = movesBox.querySelector("thead");
  var MAX_ZOOM = 1.5;  // a small drawing grows at most this much (more looks coarse, and wastes room)
  var MIN_BOARD = 160;  // px: a board is never made smaller than this (the page scrolls instead)
  var MIN_SIDE = 320;  // px: nor the side column lower than this
  var BOTTOM = 12;  // px left free below the viewer
  var shownSvg = -1;
  var texts = {};
  var current = -1;
  var timer = null;

  // An entry of svgs is a whole SVG, or [base, keepHead, keepTail, middle]: an edit of the
  // earlier entry base (see harness/report/delta.py). Resolve the chain back to a known text.
  function svgText(i) {
    var chain = [];
    while (!(i in texts) && typeof svgs[i] !== "string") { chain.push(i); i = svgs[i][0]; }
    if (!(i in texts)) { texts[i] = svgs[i]; }
    var text = texts[i];
    while (chain.length) {
      var k = chain.pop(), e = svgs[k];
      text = text.slice(0, e[1]) + e[3] + text.slice(text.length - e[2]);
      texts[k] = text;
    }
    return text;
  }

  function imageUrl(i) { return "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svgText(i)); }

  // The drawing's size from its root element's width and height (known before the image has
  // loaded, so the board never shows at its natural size first); null if it has none.
  function drawnSize(i) {
    var tag = /<svg\b[^>]*>/.exec(svgText(i));
    var w = tag && /\swidth="([\d.]+)"/.exec(tag[0]), h = tag && /\sheight="([\d.]+)"/.exec(tag[0]);
    return w && h ? [Number(w[1]), Number(h[1])] : null;
  }

  function px(value) { return parseFloat(value) || 0; }

  // Fit the board into the room the window leaves it: beside the side column (wide layout: the
  // grid has two columns) or above the controls (narrow), as large as that allows up to MAX_ZOOM.
  function fit() {
    var grid = getComputedStyle(viewer), box = getComputedStyle(boardBox);
    var wide = grid.gridTemplateColumns.split(" ").length > 1;
    var chromeX = px(box.paddingLeft) + px(box.paddingRight) + px(box.borderLeftWidth) + px(box.borderRightWidth);
    var chromeY = px(box.paddingTop) + px(box.paddingBottom) + px(box.borderTopWidth) + px(box.borderBottomWidth);
    // In page coordinates, so a page scrolled by the reader fits the same as on load.
    var room = window.innerHeight - (boardBox.getBoundingClientRect().top + window.pageYOffset) - BOTTOM;
    var width = viewer.clientWidth - chromeX, height;
    if (wide) {
      width -= px(getComputedStyle(side).minWidth) + px(grid.columnGap);
      height = room - chromeY;
      side.style.height = Math.max(room, MIN_SIDE) + "px";
    } else {
      height = room - chromeY - px(grid.rowGap) - controls.offsetHeight;  // the controls come next
      side.style.height = "";
    }
    var size = shownSvg >= 0 ? drawnSize(shownSvg) : null;
    if (!size && board.naturalWidth) { size = [board.naturalWidth, board.naturalHeight]; }
    if (!size || !size[0] || !size[1]) { return; }
    var scale = Math.min(width / size[0], Math.max(height, MIN_BOARD) / size[1], MAX_ZOOM);
    board.style.width = Math.floor(size[0] * scale) + "px";
    board.style.height = Math.floor(size[1] * scale) + "px";
  }

  // Scroll the move list (never the page) just enough to show row.
  function reveal(row) {
    var box = movesBox.getBoundingClientRect(), r = row.getBoundingClientRect();
    var top = box.top + movesBox.clientTop + (movesHead ? movesHead.offsetHeight : 0);
    var bottom = box.top + movesBox.clientTop + movesBox.clientHeight;
    if (r.top < top) { movesBox.scrollTop -= top - r.top; }
    else if (r.bottom > bottom) { movesBox.scrollTop += Math.min(r.bottom - bottom, r.top - top); }
  }

  function time(s) {
    if (s === null || s === undefined) { return "-"; }
    return s < 1 ? (s * 1000).toFixed(1) + " ms" : s.toFixed(2) + " s";
  }

  function num(v) { return String(Math.round(v * 1000) / 1000); }

  function describe(f, i) {
    if (f.p === null) { return i === 0 ? "Start position" : "End of the game by a verdict"; }
    var who = names[f.p] + (f.ok ? " played " : "'s answer was rejected: ");
    var ply = f.ok ? f.ply : f.ply + 1;
    return "Ply " + ply + ": " + who + f.m + " (wall " + time(f.w) + ", CPU " + time(f.c) + ")";
  }

  function show(i) {
    i = Math.max(0, Math.min(frames.length - 1, i));
    var f = frames[i];
    if (f.s >= 0) {
      if (f.s !== shownSvg) {
        shownSvg = f.s;
        board.src = imageUrl(f.s);
      }
      board.hidden = false;
      noBoard.hidden = true;
    } else {
      board.hidden = true;
      noBoard.hidden = false;
      viewer.classList.add("ready");  // nothing to wait for
    }
    positionText.textContent = f.t;
    statusLine.textContent = describe(f, i);
    scoreLine.textContent = f.sc.length ? "Score: " + f.sc.map(function (v, k) {
      return names[k] + " " + num(v);
    }).join(", ") : "";
    errorLine.textContent = f.e;
    errorLine.hidden = !f.e;
    counter.textContent = i + " / " + (frames.length - 1);
    slider.value = String(i);
    if (current >= 0 && rows[current]) { rows[current].classList.remove("current"); }
    current = i;
    fit();  // (a game's drawings may differ in size)
    if (rows[i]) {
      rows[i].classList.add("current");
      reveal(rows[i]);
    }
    if (i === frames.length - 1) { pause(); }
  }

  function pause() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    playButton.textContent = "play";
    playButton.setAttribute("aria-pressed", "false");
  }

  function play() {
    if (current >= frames.length - 1) { show(0); }
    pause();
    timer = setInterval(function () { show(current + 1); }, Number(speed.value));
    playButton.textContent = "pause";
    playButton.setAttribute("aria-pressed", "true");
  }

  function toggle() { if (timer === null) { play(); } else { pause(); } }

  document.getElementById("first").addEventListener("click", function () { pause(); show(0); });
  document.getElementById("prev").addEventListener("click", function () { pause(); show(current - 1); });
  document.getElementById("next").addEventListener("click", function () { pause(); show(current + 1); });
  document.getElementById("last").addEventListener("click", function () { pause(); show(frames.length - 1); });
  playButton.addEventListener("click", toggle);
  speed.addEventListener("change", function () { if (timer !== null) { play(); } });
  slider.addEventListener("input", function () { pause(); show(Number(slider.value)); });
  Array.prototype.forEach.call(rows, function (row) {
    row.addEventListener("click", function () { pause(); show(Number(row.getAttribute("data-frame"))); });
  });
  document.addEventListener("keydown", function (e) {
    var tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || (tag === "BUTTON" && e.key === " ")) { return; }
    var keys = {ArrowLeft: -1, ArrowRight: 1};
    if (e.key in keys) { pause(); show(current + keys[e.key]); }
    else if (e.key === "Home") { pause(); show(0); }
    else if (e.key === "End") { pause(); show(frames.length - 1); }
    else if (e.key === " ") { toggle(); }
    else { return; }
    e.preventDefault();
  });

  // "#12" shows frame 12, "#end" the last frame; without one the page opens on data.start.
  function fromHash(fallback) {
    var hash = window.location.hash.slice(1);
    return hash === "end" ? frames.length - 1 : (/^\d+$/.test(hash) ? Number(hash) : fallback);
  }
  window.addEventListener("hashchange", function () { pause(); show(fromHash(current)); });
  board.addEventListener("load", function () { fit(); viewer.classList.add("ready"); });
  board.addEventListener("error", function () { viewer.classList.add("ready"); });
  window.addEventListener("resize", function () {
    fit();
    if (rows[current]) { reveal(rows[current]); }
  });
  show(fromHash(data.start));
}());
