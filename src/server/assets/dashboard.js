// topicrawl dashboard. Every crawled string (titles, URLs, anchors,
// explanations, snippets) is hostile: it only ever reaches the page through
// textContent or as an attribute value checked below, never as markup.
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  // A bearer token (non-loopback servers) comes in the URL fragment, which
  // the browser never sends: http://host:port/#token=SECRET
  const m = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (m) { sessionStorage.setItem('topicrawl-token', decodeURIComponent(m[1])); history.replaceState(null, '', location.pathname); }
  const token = sessionStorage.getItem('topicrawl-token');
  let crawl = 0;

  async function api(path, options) {
    options = options || {};
    const headers = Object.assign({}, options.headers || {});
    if (token) headers['Authorization'] = 'Bearer ' + token;
    const sep = path.includes('?') ? '&' : '?';
    const r = await fetch(path + sep + 'crawl=' + crawl, Object.assign({}, options, { headers }));
    const body = await r.json().catch(() => ({}));
    if (!r.ok) {
      const e = new Error(body.error || ('HTTP ' + r.status));
      e.status = r.status;
      throw e;
    }
    return body;
  }

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function safeHref(url) {
    return /^https?:\/\//i.test(url) ? url : null;
  }
  function link(url, text) {
    const a = el('a', text || url);
    const href = safeHref(url);
    if (href) { a.href = href; a.rel = 'noopener noreferrer'; a.target = '_blank'; }
    return a;
  }
  function fmt(n, digits) {
    if (n === null || n === undefined || Number.isNaN(n)) return '-';
    return typeof n === 'number' ? n.toLocaleString('en-US', { maximumFractionDigits: digits === undefined ? 0 : digits }) : String(n);
  }
  function pct(x) { return x === null || x === undefined ? '-' : (100 * x).toFixed(1) + ' %'; }
  function duration(s) {
    s = Math.round(s || 0);
    const h = Math.floor(s / 3600), mi = Math.floor((s % 3600) / 60), se = s % 60;
    return (h ? h + 'h ' : '') + (h || mi ? mi + 'm ' : '') + se + 's';
  }

  const SVG = 'http://www.w3.org/2000/svg';
  function chart(svg, points, yMax, label) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const W = 400, H = 150, L = 34, B = 14;
    const axis = document.createElementNS(SVG, 'path');
    axis.setAttribute('class', 'axis');
    axis.setAttribute('d', `M${L} 4 V${H - B} H${W}`);
    svg.appendChild(axis);
    if (points.length < 2) return;
    const x0 = points[0][0], x1 = points[points.length - 1][0] || 1;
    let ymax = yMax;
    if (ymax === undefined) { ymax = 0; for (const p of points) ymax = Math.max(ymax, p[1]); ymax = ymax > 0 ? ymax * 1.1 : 1; }
    const sx = (x) => L + (W - L) * (x - x0) / Math.max(1e-9, x1 - x0);
    const sy = (y) => (H - B) - (H - B - 4) * Math.min(1, y / ymax);
    let d = '';
    points.forEach((p, i) => { d += (i ? 'L' : 'M') + sx(p[0]).toFixed(1) + ' ' + sy(p[1]).toFixed(1); });
    const line = document.createElementNS(SVG, 'path');
    line.setAttribute('class', 'line');
    line.setAttribute('d', d);
    svg.appendChild(line);
    const t1 = document.createElementNS(SVG, 'text');
    t1.setAttribute('x', 2); t1.setAttribute('y', 12); t1.textContent = label(ymax);
    svg.appendChild(t1);
    const t2 = document.createElementNS(SVG, 'text');
    t2.setAttribute('x', W - 60); t2.setAttribute('y', H - 2); t2.textContent = fmt(x1, 0);
    svg.appendChild(t2);
  }

  function renderStatus(s) {
    const state = $('state');
    state.textContent = s.state;
    state.className = 'badge ' + s.state;
    $('strategy').textContent = s.strategy ? 'strategy ' + s.strategy : '';
    $('dir').textContent = s.dir;
    const c = s.counters || {};
    $('pages-ok').textContent = fmt(c.pages_ok);
    $('pages-failed').textContent = fmt(c.pages_failed);
    $('relevant').textContent = fmt(c.relevant);
    $('rate').textContent = fmt(s.pages_per_s, 1);
    $('harvest').textContent = pct(s.harvest && s.harvest.window);
    $('recall').textContent = s.recall ? pct(s.recall.recall) : 'no labels';
    $('queue').textContent = fmt(s.queue);
    $('hosts').textContent = fmt(s.hosts) + ' / ' + fmt(s.hosts_backed_off);
    $('in-flight').textContent = fmt(s.in_flight);
    $('elapsed').textContent = duration(s.elapsed_s);
    $('eta-label').textContent = s.max_pages ? 'ETA to ' + fmt(s.max_pages) + ' pages' : 'ETA (no --max-pages)';
    $('eta').textContent = s.eta_s === null || s.eta_s === undefined ? '-' : duration(s.eta_s);
    const types = Object.entries(s.content_types || {}).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    $('content-types').textContent = types.length ? types.map(([t, n]) => t + ' ' + fmt(n)).join(', ') : '-';
    $('stop').disabled = !(s.live && (s.state === 'running' || s.state === 'starting'));
    const series = s.series || [];
    const rate = [];
    for (let i = 1; i < series.length; i++) {
      const dt = series[i][0] - series[i - 1][0];
      if (dt > 0) rate.push([series[i][0], (series[i][1] - series[i - 1][1]) / dt]);
    }
    chart($('chart-rate'), rate, undefined, (y) => fmt(y, 0) + '/s');
    chart($('chart-harvest'), series.filter((p) => p[1] > 0).map((p) => [p[0], p[3] / p[1]]), 1, () => '100 %');
    if (s.recall) {
      $('recall-figure').hidden = false;
      chart($('chart-recall'), s.recall.series, 1, () => '100 %');
    }
    const ol = $('recent');
    const key = (s.recent_relevant || []).slice(0, 15).map((p) => p.id).join(',');
    if (ol.dataset.key === key) return;  // unchanged: keep the nodes (and clicks) stable
    ol.dataset.key = key;
    ol.replaceChildren();
    for (const p of (s.recent_relevant || []).slice(0, 15)) {
      const li = el('li');
      const a = el('a', p.title || p.url);
      a.dataset.id = String(p.id);
      a.title = p.url;
      a.addEventListener('click', () => showWhy(p.id));
      li.appendChild(a);
      li.appendChild(el('span', p.relevance.toFixed(3), 'score'));
      ol.appendChild(li);
    }
  }

  function renderHosts(h) {
    const tbody = $('host-table').querySelector('tbody');
    tbody.replaceChildren();
    for (const x of h.hosts) {
      const tr = el('tr');
      tr.className = x.state;
      tr.appendChild(el('td', x.host));
      tr.appendChild(el('td', fmt(x.fetched), 'num'));
      tr.appendChild(el('td', fmt(x.failed), 'num'));
      tr.appendChild(el('td', fmt(x.queued), 'num'));
      tr.appendChild(el('td', x.state));
      tr.appendChild(el('td', x.backoff_level ? 'level ' + x.backoff_level : '-'));
      tr.appendChild(el('td', x.next_fetch_in_s > 0 ? x.next_fetch_in_s.toFixed(1) + ' s' : '-'));
      tbody.appendChild(tr);
    }
    $('hosts-more').textContent = h.total > h.hosts.length ? (h.total - h.hosts.length) + ' more hosts (GET /api/hosts?limit=...)' : '';
  }

  function pretty(x) {
    if (x === null || x === undefined || x === '') return '(none)';
    return typeof x === 'string' ? x : JSON.stringify(x, null, 1);
  }

  // The recent list comes from the crawl loop, which reports a page before
  // the store writer has committed it (batches are committed every 0.2-1 s),
  // so a page clicked at once can still be "no page N" for a moment: wait
  // for it (up to ~10 s) instead of leaving the panel closed. A later click
  // supersedes an earlier one still waiting.
  let whySeq = 0;
  async function showWhy(id) {
    const seq = ++whySeq;
    let p = null;
    for (let attempt = 0; ; attempt++) {
      try {
        p = await api('/api/pages/' + encodeURIComponent(id) + '?links=0');
        break;
      } catch (e) {
        if (seq !== whySeq) return;
        $('why').hidden = false;
        $('why-title').textContent = 'page ' + id;
        for (const k of ['why-summary', 'why-relevance', 'why-link']) $(k).textContent = '';
        $('why-path').replaceChildren();
        $('why-url').textContent = '';
        $('why-url').removeAttribute('href');
        if (e.status === 404 && attempt < 20) {
          $('why-summary').textContent = 'being written to the store...';
          await new Promise((resolve) => setTimeout(resolve, 500));
          if (seq !== whySeq) return;
          continue;
        }
        $('why-summary').textContent = 'cannot show page ' + id + ': ' + e.message;
        return;
      }
    }
    if (seq !== whySeq) return;
    $('why').hidden = false;
    $('why-title').textContent = p.title || p.url;
    const a = $('why-url');
    a.textContent = p.url;
    const href = safeHref(p.url);
    if (href) a.href = href; else a.removeAttribute('href');
    $('why-summary').textContent = `page ${p.id}, status ${p.status} (HTTP ${p.http_code}), depth ${p.depth}, ` +
      `relevance ${p.relevance === null ? '-' : p.relevance.toFixed(4)}, selected with link score ${p.link_score.toFixed(4)}` +
      (p.anchor ? ` via anchor "${p.anchor}"` : '');
    $('why-relevance').textContent = pretty(p.explanation);
    // Frontier rows keep the admitting link's explanation only when the
    // crawl ran with --link-details (the compact store's default leaves it
    // out: ~120 bytes on every queued URL); the score itself is above.
    $('why-link').textContent = (p.link_explanation === null || p.link_explanation === undefined ||
      p.link_explanation === '') && p.depth > 0
      ? '(not stored: crawl with --link-details to keep why each link was queued)'
      : pretty(p.link_explanation);
    const ol = $('why-path');
    ol.replaceChildren();
    const here = el('li');
    here.appendChild(el('span', `[${p.id}] `));
    here.appendChild(link(p.url, p.title || p.url));
    ol.appendChild(here);
    for (const up of p.path_to_seed) {
      const li = el('li');
      li.appendChild(el('span', `[${up.id}] depth ${up.depth} `));
      li.appendChild(link(up.url, up.title || up.url));
      if (up.anchor) li.appendChild(el('span', ` (anchor "${up.anchor}")`, 'dim'));
      ol.appendChild(li);
    }
    if (!p.path_to_seed.length) ol.appendChild(el('li', 'a seed', 'dim'));
  }

  function snippet(text) {
    // \u0001 ... \u0002 mark the matched terms.
    const span = el('span', null, 'snippet');
    const parts = String(text).split(/([\u0001\u0002])/);
    let inMark = false;
    for (const part of parts) {
      if (part === '\u0001') { inMark = true; continue; }
      if (part === '\u0002') { inMark = false; continue; }
      span.appendChild(inMark ? el('mark', part) : document.createTextNode(part));
    }
    return span;
  }

  async function search(ev) {
    ev.preventDefault();
    const q = $('search-q').value.trim();
    const ol = $('search-results');
    ol.replaceChildren();
    if (!q) return;
    try {
      const r = await api('/api/search?q=' + encodeURIComponent(q) + ($('search-relevant').checked ? '&relevant=1' : '') + '&limit=20');
      $('search-info').textContent = `about ${r.estimated_matches} matches among ${r.indexed} indexed pages (${(r.seconds * 1000).toFixed(1)} ms)`;
      for (const h of r.hits) {
        const li = el('li');
        const a = el('a', h.title || h.url);
        a.title = h.url;
        a.addEventListener('click', () => showWhy(h.id));
        li.appendChild(a);
        li.appendChild(el('span', h.relevance.toFixed(3), 'score'));
        li.appendChild(el('br'));
        li.appendChild(snippet(h.snippet));
        ol.appendChild(li);
      }
    } catch (e) {
      $('search-info').textContent = 'search: ' + e.message;
    }
  }

  async function stop() {
    $('stop').disabled = true;
    try {
      await api('/api/stop', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    } catch (e) {
      $('state').textContent = 'stop failed: ' + e.message;
    }
  }

  async function tick() {
    try {
      renderStatus(await api('/api/status'));
      renderHosts(await api('/api/hosts?limit=20'));
    } catch (e) {
      $('state').textContent = 'offline';
      $('state').className = 'badge';
    }
  }

  async function init() {
    $('search-form').addEventListener('submit', search);
    $('stop').addEventListener('click', stop);
    try {
      const list = await api('/api/crawls');
      const sel = $('crawl-select');
      for (const c of list.crawls) {
        const o = el('option', c.dir);
        o.value = String(c.crawl);
        sel.appendChild(o);
      }
      sel.hidden = list.crawls.length < 2;
      sel.addEventListener('change', () => { crawl = Number(sel.value); tick(); });
    } catch (e) { /* shown by tick */ }
    await tick();
    setInterval(tick, 1000);
  }
  init();
})();
