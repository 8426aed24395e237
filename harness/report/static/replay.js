// The replay viewer: swaps the drawn positions (embedded once as JSON) on step/play/slider.
// Text from the page data is only ever set with textContent; drawings are shown through an
// <img> (an SVG in an image cannot run scripts).
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
      board.src = imageUrl(f.s);
      board.hidden = false;
      noBoard.hidden = true;
    } else {
      board.hidden = true;
      noBoard.hidden = false;
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
    if (rows[i]) {
      rows[i].classList.add("current");
      rows[i].scrollIntoView({block: "nearest"});
    }
    current = i;
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
  show(fromHash(data.start));
}());
