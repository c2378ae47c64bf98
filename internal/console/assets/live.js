// live.js polls the live page's JSON endpoint every second and rewrites
// its three tables. Every value goes in with textContent, never as HTML.
(function () {
  "use strict";
  var ops = document.getElementById("live-ops");
  if (!ops) { return; }
  var url = ops.dataset.url;
  var status = document.getElementById("live-status");
  var busy = false;

  function fill(id, rows, keys) {
    var body = document.getElementById(id).tBodies[0];
    while (body.rows.length > 0) { body.deleteRow(0); }
    rows.forEach(function (r) {
      var tr = body.insertRow(-1);
      keys.forEach(function (k, i) {
        var td = tr.insertCell(-1);
        if (i > 0) { td.className = "num"; }
        td.textContent = r[k];
      });
    });
  }

  function poll() {
    if (busy) { return; }
    busy = true;
    fetch(url, { headers: { "Accept": "application/json" } })
      .then(function (resp) { return resp.json().then(function (j) { return { ok: resp.ok, j: j }; }); })
      .then(function (a) {
        if (!a.ok) { status.textContent = "Live updates stopped: " + a.j.error; clearInterval(timer); return; }
        fill("live-ops", a.j.ops, ["op", "perSecond", "calls", "p50", "p99"]);
        fill("live-errors", a.j.errors, ["code", "perSecond"]);
        fill("live-tables", a.j.tables, ["table", "rcu", "wcu"]);
        status.textContent = "Live: updated every second.";
      })
      .catch(function (e) { status.textContent = "Live updates paused: " + e; })
      .then(function () { busy = false; });
  }

  var timer = setInterval(poll, 1000);
  poll();
})();
