// tail.js polls the stream page's JSON endpoint and prepends new records.
// Every value goes in with textContent, never as HTML.
(function () {
  "use strict";
  var table = document.getElementById("records");
  if (!table) { return; }
  var body = table.tBodies[0];
  var url = table.dataset.records;
  var after = table.dataset.after || "";
  var keep = parseInt(table.dataset.keep, 10) || 100;
  var status = document.getElementById("tail-status");
  var busy = false;

  function cell(tr, value, cls) {
    var td = document.createElement("td");
    if (cls) { td.className = cls; }
    td.textContent = value;
    tr.appendChild(td);
  }

  function add(r) {
    var tr = document.createElement("tr");
    tr.className = "record live";
    tr.dataset.seq = r.seq;
    cell(tr, r.seq, "num");
    cell(tr, r.event, "ev-" + r.event);
    cell(tr, r.time, "");
    cell(tr, r.keys, "image");
    cell(tr, r.old, "image");
    cell(tr, r.new, "image");
    body.insertBefore(tr, body.firstChild);
    while (body.rows.length > keep) { body.deleteRow(body.rows.length - 1); }
    var none = document.getElementById("no-records");
    if (none) { none.remove(); }
  }

  function poll() {
    if (busy) { return; }
    busy = true;
    fetch(url + "?after=" + encodeURIComponent(after), { headers: { "Accept": "application/json" } })
      .then(function (resp) { return resp.json().then(function (j) { return { ok: resp.ok, j: j }; }); })
      .then(function (a) {
        if (!a.ok) { status.textContent = "Live updates stopped: " + a.j.error; clearInterval(timer); return; }
        a.j.records.forEach(function (r) { add(r); after = r.seq; });
        status.textContent = "Live: checking every second.";
      })
      .catch(function (e) { status.textContent = "Live updates paused: " + e; })
      .then(function () { busy = false; });
  }

  var timer = setInterval(poll, 1000);
  poll();
})();
