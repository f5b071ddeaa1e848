// The dashboard of gonamesrv: refreshed by itself, drawn from the
// NameServer's own /v1 endpoints; read-only but for the admins' drain and
// undrain buttons (shown when /v1/whoami says admin, under aclEnable).
// Broker and topic lists are sorted and paged on the server, so 100,000
// topics and 1,000 brokers never make a large page load; a topic's broker
// names collapse to a count, listed on demand.
"use strict";

const params = new URLSearchParams(location.search);
// ?refresh=MS changes the refresh period (the browser test uses a short one).
const REFRESH_MS = Math.max(500, Number(params.get("refresh")) || 5000);
const BROKER_PAGE = 25;
const TOPIC_PAGE = 50;

const state = {
  brokerOffset: 0, brokerTotal: 0, brokerCluster: "", brokerSort: "", brokerOrder: "asc",
  topicOffset: 0, topicTotal: 0, topicQuery: "", topicCluster: "", topicSort: "", topicOrder: "asc", topicSystem: false,
  selectedTopic: "", clusters: [], admin: false, acl: false,
};

const $ = (id) => document.getElementById(id);

async function getJSON(path) {
  const resp = await fetch(path, { cache: "no-store" });
  const body = await resp.json();
  if (!resp.ok) throw new Error(body.error || resp.statusText);
  return body;
}

// el builds an element with text content (never HTML) and classes.
// postJSON sends an admin action; the header is the server's CSRF guard.
async function postJSON(path) {
  const resp = await fetch(path, { method: "POST", cache: "no-store", headers: { "X-Requested-By": "gonamesrv-dashboard" } });
  const body = await resp.json();
  if (!resp.ok) throw new Error(body.error || resp.statusText);
  return body;
}

// refreshWho asks who the browser is signed in as; under aclEnable the
// first answer is a 401 that makes the browser prompt for the accessKey and
// secretKey, asked once before the other requests.
async function refreshWho() {
  const who = await getJSON("/v1/whoami");
  state.acl = who.aclEnable;
  state.admin = who.aclEnable && who.admin;
  $("who").textContent = who.aclEnable ? "signed in as " + who.accessKey + (who.admin ? " (admin)" : "") : "ACL off: read-only";
  for (const e of document.querySelectorAll(".admin-only")) e.hidden = !state.admin;
}

// changeWrite drains or undrains a broker name after the operator confirms.
async function changeWrite(brokerName, action) {
  const what = action === "drain"
    ? "Drain " + brokerName + "? Its queues stop taking writes (write permission wiped on this NameServer)."
    : "Undrain " + brokerName + "? Its queues take writes again on this NameServer.";
  if (!window.confirm(what)) return;
  try {
    const res = await postJSON("/v1/brokers/" + encodeURIComponent(brokerName) + "/" + action);
    $("admin-msg").textContent = res.action + " " + res.brokerName + ": " + res.topics + " topics changed";
  } catch (err) {
    $("admin-msg").textContent = action + " " + brokerName + " failed: " + err.message;
  }
  refreshBrokers();
}

function actionButton(brokerName, action) {
  const b = el("button", action, "write-" + action);
  b.type = "button";
  b.dataset.brokerName = brokerName;
  b.addEventListener("click", () => changeWrite(brokerName, action));
  return b;
}

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

function row(cells, cls) {
  const tr = el("tr", null, cls);
  for (const c of cells) tr.appendChild(c instanceof Node ? c : el("td", c));
  return tr;
}

function replaceRows(table, rows) {
  const tbody = $(table).querySelector("tbody");
  tbody.replaceChildren(...rows);
}

function age(ms) {
  if (ms < 1000) return ms + " ms";
  const s = ms / 1000;
  if (s < 120) return s.toFixed(1) + " s";
  if (s < 7200) return (s / 60).toFixed(1) + " min";
  if (s < 172800) return (s / 3600).toFixed(1) + " h";
  return (s / 86400).toFixed(1) + " days";
}

// when is a Unix time in ms as local date and time, 2026-12-03 07:31:05.
function when(ms) {
  if (!ms) return "never";
  const d = new Date(ms);
  const p = (n) => String(n).padStart(2, "0");
  return d.getFullYear() + "-" + p(d.getMonth() + 1) + "-" + p(d.getDate()) + " " + p(d.getHours()) + ":" + p(d.getMinutes()) + ":" + p(d.getSeconds());
}

// titled is a cell showing text, with the raw value on hover.
function titled(text, title, cls) {
  const td = el("td", text, cls);
  td.title = String(title);
  return td;
}

// sortParams adds the table's sort column and order to q.
function sortParams(q, column, order) {
  if (column) { q.set("sort", column); q.set("order", order); }
}

// showSort marks the sorted column's header.
function showSort(table, column, order) {
  for (const th of $(table).querySelectorAll("th[data-sort]")) {
    if (th.dataset.sort === column) th.setAttribute("aria-sort", order === "desc" ? "descending" : "ascending");
    else th.removeAttribute("aria-sort");
  }
}

// openBrokerNames holds the topics whose broker-name list the operator
// opened: the table is re-rendered on every refresh, and a list that closed
// by itself each time could not be read (it grows only by clicks).
const openBrokerNames = new Set();

// brokerNamesCell lists up to three broker names; more collapse to a count
// whose list opens on demand and stays open across refreshes.
function brokerNamesCell(names, topic) {
  const td = el("td", null, "broker-names");
  if (names.length <= 3) { td.textContent = names.join(", "); return td; }
  const details = el("details", null, "names");
  details.open = openBrokerNames.has(topic);
  details.addEventListener("toggle", () => {
    if (details.open) openBrokerNames.add(topic);
    else openBrokerNames.delete(topic);
  });
  details.appendChild(el("summary", names.length + " broker names"));
  details.appendChild(el("div", names.join(", "), "list"));
  td.appendChild(details);
  return td;
}

// writableCell says whether a topic takes writes: yes on all its broker
// names, no on none, "2 of 3 brokers" when some are drained or read-only.
function writableCell(t) {
  const n = t.writableBrokers ?? (t.writable ? t.brokerCount : 0);
  if (n >= t.brokerCount) return el("td", "yes", "writable");
  if (n === 0) return el("td", "no", "drained");
  const td = el("td", n + " of " + t.brokerCount + " brokers", "writable-some");
  td.title = "writable on " + n + " of its " + t.brokerCount + " broker names; the others are drained or read-only";
  return td;
}

// heartbeatClass colours a heartbeat's age as it nears the broker's timeout.
function heartbeatClass(since, timeout) {
  const used = timeout > 0 ? since / timeout : 0;
  if (used >= 0.8) return "hb-bad";
  if (used >= 0.5) return "hb-warn";
  return "hb-ok";
}

async function refreshStatus() {
  const st = await getJSON("/v1/status");
  const box = $("status");
  box.replaceChildren(
    el("span", st.ready ? "ready" : "not ready: " + st.notReadyReason, st.ready ? "ready" : "notready"),
    el("span", "v" + st.version + " (" + st.goVersion + ")"),
    el("span", st.addr),
    el("span", "up " + age(Math.round(st.uptimeSeconds * 1000))),
    el("span", st.counts.clusters + " clusters, " + st.counts.liveBrokers + " live brokers, " + st.counts.topics + " topics"),
  );
}

async function refreshClusters() {
  const data = await getJSON("/v1/clusters");
  const names = data.clusters.map((c) => c.name);
  if (names.join("\n") === state.clusters.join("\n")) return;
  state.clusters = names;
  for (const id of ["broker-cluster", "topic-cluster"]) {
    const sel = $(id);
    const keep = sel.value;
    sel.replaceChildren(el("option", "all"));
    sel.firstChild.value = "";
    for (const n of names) {
      const o = el("option", n);
      o.value = n;
      sel.appendChild(o);
    }
    sel.value = names.includes(keep) ? keep : "";
  }
}

async function refreshBrokers() {
  const q = new URLSearchParams({ offset: state.brokerOffset, limit: BROKER_PAGE });
  if (state.brokerCluster) q.set("cluster", state.brokerCluster);
  sortParams(q, state.brokerSort, state.brokerOrder);
  const data = await getJSON("/v1/brokers?" + q);
  state.brokerTotal = data.total;
  showSort("brokers", state.brokerSort, state.brokerOrder);
  $("brokers-page").textContent = pageText(state.brokerOffset, data.brokers.length, data.total);
  replaceRows("brokers", data.brokers.map((b) => {
    const hb = el("td", age(b.sinceLastHeartbeatMillis), "hb-age " + heartbeatClass(b.sinceLastHeartbeatMillis, b.heartbeatTimeoutMillis));
    hb.title = "timeout " + age(b.heartbeatTimeoutMillis) + ", last registration " + age(b.sinceLastRegisterMillis) + " ago";
    const cells = [
      b.cluster, b.brokerName, el("td", b.role, b.role === "master" ? "master" : ""), b.brokerId, b.brokerAddr,
      titled(b.versionName, "MQVersion ordinal " + b.version, "version"),
      titled("#" + b.dataVersion.counter + " at " + when(b.dataVersion.timestamp),
        "counter " + b.dataVersion.counter + ", timestamp " + b.dataVersion.timestamp + " ms, state version " + b.dataVersion.stateVersion, "data-version"),
      hb,
      el("td", b.writePermWiped ? "drained" : "writable", b.writePermWiped ? "drained" : "writable"), b.topicCount,
    ];
    if (state.admin) {
      const td = el("td", null, "admin-only");
      td.appendChild(actionButton(b.brokerName, b.writePermWiped ? "undrain" : "drain"));
      cells.push(td);
    }
    const tr = row(cells);
    tr.dataset.addr = b.brokerAddr;
    return tr;
  }));
}

function pageText(offset, shown, total) {
  if (total === 0) return "none";
  return (offset + 1) + "–" + (offset + shown) + " of " + total;
}

async function refreshTopics() {
  const q = new URLSearchParams({ offset: state.topicOffset, limit: TOPIC_PAGE });
  if (state.topicQuery) q.set("q", state.topicQuery);
  if (state.topicCluster) q.set("cluster", state.topicCluster);
  if (!state.topicSystem) q.set("system", "false");
  sortParams(q, state.topicSort, state.topicOrder);
  const data = await getJSON("/v1/topics?" + q);
  state.topicTotal = data.total;
  showSort("topics", state.topicSort, state.topicOrder);
  $("topics-page").textContent = pageText(state.topicOffset, data.topics.length, data.total);
  replaceRows("topics", data.topics.map((t) => {
    const tr = row([t.topic, brokerNamesCell(t.brokerNames, t.topic), t.readQueueNums, t.writeQueueNums, writableCell(t)],
      t.topic === state.selectedTopic ? "selected" : "");
    tr.dataset.topic = t.topic;
    tr.addEventListener("click", (e) => {
      if (e.target.closest("details")) return; // opening the broker list is not picking the topic
      state.selectedTopic = t.topic; refreshRoute(); refreshTopics();
    });
    return tr;
  }));
}

async function refreshRoute() {
  const box = $("route");
  if (!state.selectedTopic) return;
  let data;
  try {
    data = await getJSON("/v1/topics/" + encodeURIComponent(state.selectedTopic) + "/route");
  } catch (err) {
    box.replaceChildren(el("h3", state.selectedTopic), el("p", err.message, "hint"));
    return;
  }
  const queues = el("table");
  queues.appendChild(el("thead")).appendChild(row([el("th", "broker name"), el("th", "read"), el("th", "write"), el("th", "perm")]));
  const qbody = queues.appendChild(el("tbody"));
  for (const qd of data.queueDatas) qbody.appendChild(row([qd.brokerName, qd.readQueueNums, qd.writeQueueNums, qd.permText + " (" + qd.perm + ")"]));
  const addrs = el("table");
  addrs.appendChild(el("thead")).appendChild(row([el("th", "broker name"), el("th", "id"), el("th", "address")]));
  const abody = addrs.appendChild(el("tbody"));
  for (const bd of data.brokerDatas) {
    for (const [id, addr] of Object.entries(bd.addrs)) abody.appendChild(row([bd.brokerName, id, addr]));
  }
  const children = [el("h3", state.selectedTopic), queues, addrs];
  if (data.orderTopicConf) children.push(el("p", "order conf: " + data.orderTopicConf));
  box.replaceChildren(...children);
}

// adminsOnly says so in a table a non-admin may not read under ACL.
function adminsOnly(table, cols) {
  if (!state.acl || state.admin) return false;
  replaceRows(table, [row(["(admins only under ACL)", ...Array(cols - 1).fill("")])]);
  return true;
}

async function refreshKV() {
  if (adminsOnly("kv", 3)) return;
  const data = await getJSON("/v1/kv?limit=1000");
  const rows = [];
  for (const ns of Object.keys(data.namespaces).sort()) {
    const kv = data.namespaces[ns];
    for (const k of Object.keys(kv).sort()) rows.push(row([ns, k, kv[k]]));
  }
  if (rows.length === 0) rows.push(row(["(empty)", "", ""]));
  replaceRows("kv", rows);
}

async function refreshConfig() {
  if (adminsOnly("config", 2)) return;
  const data = await getJSON("/v1/config");
  replaceRows("config", Object.keys(data.config).sort().map((k) => row([k, data.config[k]])));
}

// drawChart draws values (at times ts, ms) as a line with its min and max.
function drawChart(svgId, ts, values, unit) {
  const svg = $(svgId);
  const W = 300, H = 90, pad = 14;
  svg.replaceChildren();
  const ns = "http://www.w3.org/2000/svg";
  const text = (x, y, s, anchor) => {
    const t = document.createElementNS(ns, "text");
    t.setAttribute("x", x); t.setAttribute("y", y);
    if (anchor) t.setAttribute("text-anchor", anchor);
    t.textContent = s;
    svg.appendChild(t);
  };
  if (values.length < 2) { text(W / 2, H / 2, "collecting…", "middle"); return; }
  const t0 = ts[0], t1 = ts[ts.length - 1] || t0 + 1;
  const hi = Math.max(1, ...values);
  const pts = values.map((v, i) => [((ts[i] - t0) / Math.max(1, t1 - t0)) * (W - 2 * pad) + pad, H - pad - (v / hi) * (H - 2 * pad)]);
  const d = pts.map((p, i) => (i ? "L" : "M") + p[0].toFixed(1) + "," + p[1].toFixed(1)).join("");
  const area = document.createElementNS(ns, "path");
  area.setAttribute("d", d + "L" + pts[pts.length - 1][0].toFixed(1) + "," + (H - pad) + "L" + pad + "," + (H - pad) + "Z");
  area.setAttribute("class", "area");
  svg.appendChild(area);
  const line = document.createElementNS(ns, "path");
  line.setAttribute("d", d);
  line.setAttribute("class", "line");
  svg.appendChild(line);
  text(pad, 10, "max " + fmt(hi) + unit);
  text(W - pad, 10, "now " + fmt(values[values.length - 1]) + unit, "end");
  text(pad, H - 3, "last " + age(t1 - t0));
}

function fmt(v) { return v >= 100 ? Math.round(v).toString() : v.toFixed(v >= 10 ? 1 : 2).replace(/\.?0+$/, "") || "0"; }

async function refreshCharts() {
  const data = await getJSON("/v1/stats");
  const s = data.samples;
  const ts = [], routes = [], regs = [], brokers = [], topics = [];
  for (let i = 1; i < s.length; i++) {
    const dt = (s[i].t - s[i - 1].t) / 1000;
    if (dt <= 0) continue;
    ts.push(s[i].t);
    routes.push((s[i].routeQueries - s[i - 1].routeQueries) / dt);
    regs.push((s[i].registrations - s[i - 1].registrations) / dt);
    brokers.push(s[i].liveBrokers);
    topics.push(s[i].topics);
  }
  drawChart("chart-routes", ts, routes, "/s");
  drawChart("chart-registrations", ts, regs, "/s");
  drawChart("chart-brokers", ts, brokers, "");
  drawChart("chart-topics", ts, topics, "");
}

// kvCell shows the last KV config exchange with a peer (docs/operations.md,
// "KV config between NameServers"): none without a peer account.
function kvCell(kv) {
  if (!kv) return el("td", "not exchanged (no peerAccessKey)", "hint");
  if (kv.error) return el("td", kv.error, "differ");
  if (kv.agree) return el("td", "agree (" + kv.keys + " keys" + (kv.pulled ? ", " + kv.pulled + " pulled" : "") + ")", "agree");
  return el("td", "differ: " + kv.pulled + " pulled, " + kv.newerHere + " newer here (it pulls them)", "differ");
}

// refreshPeers shows the last background check of each peer NameServer.
async function refreshPeers() {
  const data = await getJSON("/v1/peers");
  const self = data.self;
  $("peers-note").textContent = "this server: " + self.addr + ", " + self.brokers + " brokers, " + self.topics +
    " topics; peers checked every " + age(data.intervalMillis) + " (timeout " + age(data.timeoutMillis) + "), KV config exchanged every " + age(data.kvIntervalMillis);
  const now = Date.now();
  const rows = data.peers.map((p) => {
    const state = el("td", p.up ? "up" : "down", "peer-state " + (p.up ? "peer-up" : "peer-down"));
    if (!p.up) state.title = p.error;
    let routes;
    if (!p.up) routes = el("td", p.error, "hint");
    else if (p.routesAgree && p.healing) routes = el("td", "healing: " + p.healing.join("; "), "hint");
    else if (p.routesAgree) routes = el("td", p.topics < 0 ? "brokers agree (topics not listed)" : "agree", "agree");
    else routes = el("td", p.differences.join("; ") + (p.healing ? "; healing: " + p.healing.join("; ") : ""), "differ");
    const tr = row([p.addr, state, p.up ? p.brokers : "", p.up ? p.brokerNames : "", p.up && p.topics >= 0 ? p.topics : "",
      routes, kvCell(p.kv), age(Math.max(0, now - p.checkedMillis)) + " ago", p.lastUpMillis ? when(p.lastUpMillis) : "never"]);
    tr.dataset.addr = p.addr;
    return tr;
  });
  if (rows.length === 0) rows.push(row(["no peers configured (peerNamesrvAddrs, or addressServerList)", "", "", "", "", "", "", "", ""]));
  replaceRows("peers", rows);
}

// refreshController shows the controller embedded in this NameServer
// (enableControllerInNamesrv); the panel stays hidden while /v1/controller
// answers 404 (no controller here).
async function refreshController() {
  const resp = await fetch("/v1/controller", { cache: "no-store" });
  if (resp.status === 404) { $("controller-section").hidden = true; return; }
  const c = await resp.json();
  if (!resp.ok) throw new Error(c.error || resp.statusText);
  $("controller-section").hidden = false;
  const leader = c.leaderId ? c.leaderId + " (" + c.leaderAddress + ")" : "none known";
  $("controller-note").textContent = "group " + c.group + ", this node " + c.self + ": " + c.role + (c.serving ? ", serving" : "") +
    "; leader " + leader + "; term " + c.term + ", last index " + c.lastIndex + ", applied " + c.appliedIndex +
    ", snapshot " + c.snapshotIndex + "; " + c.liveBrokers + " live brokers";
  // One line per member of the controller group, and per member of a
  // broker set (run together, a wrapped line split one member in two).
  $("controller-peers").replaceChildren(el("div", "peers:"),
    ...(c.peers || []).map((p) => el("div", p.id + " " + p.addr + " (raft " + p.raftAddr + ")", "controller-peer")));
  const rows = (c.brokerSets || []).map((b) => {
    const members = el("td", null, "members");
    for (const m of membersMasterFirst(b)) {
      members.appendChild(el("div", m.brokerId + " " + m.address + (m.alive ? " alive" : " dead"), "member " + (m.alive ? "peer-up" : "peer-down")));
    }
    const tr = row([b.clusterName, b.brokerName, el("td", b.masterBrokerId === null ? "none" : b.masterBrokerId, "master"), b.masterEpoch,
      b.syncStateSetEpoch, (b.syncStateSet || []).join(", "), members, b.nextBrokerId]);
    tr.dataset.brokerName = b.brokerName;
    return tr;
  });
  if (rows.length === 0) rows.push(row(["no broker sets registered", "", "", "", "", "", "", ""]));
  replaceRows("controller-sets", rows);
}

// membersMasterFirst lists a broker set's members with its master first,
// then by broker id.
function membersMasterFirst(set) {
  const rank = (m) => (m.brokerId === set.masterBrokerId ? -1 : m.brokerId);
  return [...(set.members || [])].sort((a, b) => rank(a) - rank(b));
}

async function refreshAll() {
  const parts = [refreshStatus, refreshClusters, refreshPeers, refreshController, refreshBrokers, refreshTopics, refreshRoute, refreshKV, refreshConfig, refreshCharts];
  const results = await Promise.allSettled(parts.map((f) => f()));
  const failed = results.filter((r) => r.status === "rejected");
  $("refreshed").textContent = new Date().toLocaleTimeString() + (failed.length ? " (" + failed[0].reason.message + ")" : "");
}

function wire() {
  $("broker-cluster").addEventListener("change", (e) => { state.brokerCluster = e.target.value; state.brokerOffset = 0; refreshBrokers(); });
  $("brokers-prev").addEventListener("click", () => { state.brokerOffset = Math.max(0, state.brokerOffset - BROKER_PAGE); refreshBrokers(); });
  $("brokers-next").addEventListener("click", () => {
    if (state.brokerOffset + BROKER_PAGE < state.brokerTotal) { state.brokerOffset += BROKER_PAGE; refreshBrokers(); }
  });
  let searchTimer = 0;
  $("topic-search").addEventListener("input", (e) => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => { state.topicQuery = e.target.value.trim(); state.topicOffset = 0; refreshTopics(); }, 200);
  });
  $("topic-cluster").addEventListener("change", (e) => { state.topicCluster = e.target.value; state.topicOffset = 0; refreshTopics(); });
  $("topics-prev").addEventListener("click", () => { state.topicOffset = Math.max(0, state.topicOffset - TOPIC_PAGE); refreshTopics(); });
  $("topics-next").addEventListener("click", () => {
    if (state.topicOffset + TOPIC_PAGE < state.topicTotal) { state.topicOffset += TOPIC_PAGE; refreshTopics(); }
  });
  $("topic-system").addEventListener("change", (e) => { state.topicSystem = e.target.checked; state.topicOffset = 0; refreshTopics(); });
  // A header click sorts on its column; a second click turns the order.
  const sorts = { broker: refreshBrokers, topic: refreshTopics };
  for (const table of document.querySelectorAll("table.sortable")) {
    const prefix = table.dataset.state;
    for (const th of table.querySelectorAll("th[data-sort]")) {
      th.addEventListener("click", () => {
        const column = th.dataset.sort;
        if (state[prefix + "Sort"] === column) state[prefix + "Order"] = state[prefix + "Order"] === "asc" ? "desc" : "asc";
        else { state[prefix + "Sort"] = column; state[prefix + "Order"] = "asc"; }
        state[prefix + "Offset"] = 0;
        sorts[prefix]();
      });
    }
  }
}

async function start() {
  wire();
  try { await refreshWho(); } catch (err) { $("who").textContent = "not signed in: " + err.message; }
  refreshAll();
  setInterval(refreshAll, REFRESH_MS);
}

start();
