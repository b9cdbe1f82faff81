// The ZLens dashboard: one view of a dashboard's tiles, filters and trust labels.
//
// The same module draws the notebook widget (anywidget: `render({model, el})`) and the exported
// single HTML file (it renders itself when the page holds `#zlens-dashboard-data`). Everything it
// shows is in the view the kernel computed: each tile's rows, and for each filter bound to a
// block `@param` the rows of every option, so filters work with no kernel and no network.
// Charts are small hand-drawn SVG: bars for breakdowns, a line for trends, a number for KPIs.

const TRUST_LABEL = {
  certified: 'certified', grounded: 'grounded', review_required: 'review required',
  pending_recertification: 'pending recertification', blocked: 'blocked',
  not_applicable: 'not applicable'
};
const TRUST_COLOUR = {
  certified: 'var(--jp-success-color1, #388e3c)',
  grounded: 'var(--jp-brand-color1, #1976d2)',
  review_required: 'var(--jp-warn-color1, #f57c00)',
  pending_recertification: 'var(--jp-warn-color0, #bf360c)',
  blocked: 'var(--jp-error-color1, #d32f2f)',
  not_applicable: 'var(--jp-ui-font-color2, #616161)'
};
const FONT = "var(--jp-ui-font-family, system-ui, -apple-system, 'Segoe UI', sans-serif)";
const MUTED = 'var(--jp-ui-font-color2, #616161)';
const BORDER = 'var(--jp-border-color2, #d0d7de)';
const ACCENT = 'var(--jp-brand-color1, #1976d2)';
const SVG = 'http://www.w3.org/2000/svg';
const TABLE_ROWS = 50;

function h(tag, style, text) {
  const node = document.createElement(tag);
  if (style) node.setAttribute('style', style);
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function s(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  return node;
}

function chip(trust, text) {
  const colour = TRUST_COLOUR[trust] || TRUST_COLOUR.not_applicable;
  const node = h('span', `display:inline-block;border:1px solid ${colour};color:${colour};` +
    'border-radius:10px;padding:0 8px;font-weight:600;font-size:12px;white-space:nowrap',
  text || TRUST_LABEL[trust] || trust);
  node.className = `zlens-trust zlens-trust-${trust}`;
  node.dataset.trust = trust;
  return node;
}

function fmt(value) {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'number') {
    const abs = Math.abs(value);
    if (abs >= 1e6) return (value / 1e6).toFixed(abs >= 1e7 ? 1 : 2) + 'M';
    if (abs >= 1e4) return (value / 1e3).toFixed(abs >= 1e5 ? 0 : 1) + 'k';
    return Number.isInteger(value) ? value.toLocaleString('en-US') :
      value.toLocaleString('en-US', { maximumFractionDigits: 2 });
  }
  return String(value);
}

function label(value) {
  const text = String(value ?? '—');
  return /^\d{4}-\d{2}-01(T00:00:00)?$/.test(text) ? text.slice(0, 7) : text;
}

function variantKey(values) {
  return Object.keys(values).sort().map(k => `${k}=${values[k]}`).join('&');
}

function compare(a, b) {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = Number(a), y = Number(b);
  if (a !== '' && b !== '' && !Number.isNaN(x) && !Number.isNaN(y)) return x - y;
  return String(a).localeCompare(String(b));
}

/** The rows a tile shows under the current filter choices (pure: tested through the page). */
export function tileRows(tile, filters, choice) {
  let rows = tile.rows;
  const bound = filters.filter(f => tile.binds[f.name] === 'param');
  if (bound.length && bound.some(f => choice[f.name] !== '*')) {
    const key = variantKey(Object.fromEntries(bound.map(f => [f.param, choice[f.name]])));
    const variant = tile.variants[key];
    if (!variant) return null;
    rows = variant.rows;
  }
  for (const f of filters) {
    if (tile.binds[f.name] !== 'rows') continue;
    const at = tile.columns.findIndex(c => c.toLowerCase() === String(f.column).toLowerCase());
    if (at < 0) continue;
    const value = choice[f.name];
    if (f.type === 'range') {
      const [from, to] = value;
      rows = rows.filter(r => (from === '*' || compare(r[at], from) >= 0) &&
        (to === '*' || compare(r[at], to) <= 0));
    } else if (value !== '*') {
      rows = rows.filter(r => String(r[at]) === String(value));
    }
  }
  return rows;
}

function barChart(tile, rows) {
  const xi = tile.columns.indexOf(tile.x), yi = tile.columns.indexOf(tile.y);
  const width = 420, rowH = 22, left = 120, right = 70;
  const svg = s('svg', { viewBox: `0 0 ${width} ${rows.length * rowH + 8}`, width: '100%',
    role: 'img', 'aria-label': `${tile.y} by ${tile.x}`, class: 'zlens-chart zlens-bar' });
  const max = Math.max(0, ...rows.map(r => Number(r[yi]) || 0)) || 1;
  rows.forEach((r, i) => {
    const y = 4 + i * rowH, v = Number(r[yi]) || 0;
    const w = Math.max(1, (width - left - right) * Math.max(0, v) / max);
    const name = s('text', { x: left - 6, y: y + 15, 'text-anchor': 'end', 'font-size': 12,
      fill: 'currentColor' });
    name.textContent = label(r[xi]).slice(0, 18);
    const bar = s('rect', { x: left, y: y + 3, width: w, height: rowH - 7, rx: 2, fill: ACCENT,
      class: 'zlens-bar-rect' });
    const tip = s('title');
    tip.textContent = `${label(r[xi])}: ${fmt(r[yi])}`;
    bar.append(tip);
    const num = s('text', { x: left + w + 4, y: y + 15, 'font-size': 11, fill: 'currentColor' });
    num.textContent = fmt(r[yi]);
    svg.append(name, bar, num);
  });
  return svg;
}

function lineChart(tile, rows) {
  const xi = tile.columns.indexOf(tile.x), yi = tile.columns.indexOf(tile.y);
  const width = 420, height = 170, pad = { l: 48, r: 10, t: 10, b: 24 };
  const svg = s('svg', { viewBox: `0 0 ${width} ${height}`, width: '100%', role: 'img',
    'aria-label': `${tile.y} by ${tile.x}`, class: 'zlens-chart zlens-line' });
  const values = rows.map(r => Number(r[yi]) || 0);
  const lo = Math.min(0, ...values), hi = Math.max(...values, 1);
  const px = i => pad.l + (rows.length < 2 ? 0.5 : i / (rows.length - 1)) * (width - pad.l - pad.r);
  const py = v => pad.t + (1 - (v - lo) / (hi - lo || 1)) * (height - pad.t - pad.b);
  svg.append(s('line', { x1: pad.l, x2: width - pad.r, y1: py(lo), y2: py(lo), stroke: BORDER }));
  for (const v of [lo, hi]) {
    const t = s('text', { x: pad.l - 4, y: py(v) + 4, 'text-anchor': 'end', 'font-size': 10,
      fill: 'currentColor' });
    t.textContent = fmt(v);
    svg.append(t);
  }
  const points = values.map((v, i) => `${px(i).toFixed(1)},${py(v).toFixed(1)}`).join(' ');
  svg.append(s('polyline', { points, fill: 'none', stroke: ACCENT, 'stroke-width': 2,
    class: 'zlens-line-path' }));
  values.forEach((v, i) => {
    const dot = s('circle', { cx: px(i), cy: py(v), r: 2.5, fill: ACCENT, class: 'zlens-point' });
    const tip = s('title');
    tip.textContent = `${label(rows[i][xi])}: ${fmt(v)}`;
    dot.append(tip);
    svg.append(dot);
  });
  if (rows.length) {
    for (const [i, anchor] of [[0, 'start'], [rows.length - 1, 'end']]) {
      const t = s('text', { x: px(i), y: height - 6, 'text-anchor': anchor, 'font-size': 10,
        fill: 'currentColor' });
      t.textContent = label(rows[i][xi]);
      svg.append(t);
    }
  }
  return svg;
}

function table(tile, rows) {
  const cell = `padding:2px 8px;border-bottom:1px solid ${BORDER}`;
  const node = h('table', 'border-collapse:collapse;font-size:12px;font-variant-numeric:tabular-nums');
  node.className = 'zlens-table';
  const head = h('tr');
  tile.columns.forEach(c => head.append(h('th', `${cell};text-align:left`, c)));
  node.append(head);
  rows.slice(0, TABLE_ROWS).forEach(r => {
    const tr = h('tr');
    r.forEach(v => tr.append(h('td', `${cell};text-align:${typeof v === 'number' ? 'right' : 'left'}`,
      typeof v === 'number' ? fmt(v) : label(v))));
    node.append(tr);
  });
  return node;
}

function kpi(tile, rows) {
  const yi = tile.columns.indexOf(tile.y);
  const node = h('div', 'font-size:32px;font-weight:600;margin:12px 0',
    rows.length ? fmt(rows[0][yi]) : '—');
  node.className = 'zlens-kpi-value';
  return node;
}

function drawBody(body, tile, filters, choice) {
  body.replaceChildren();
  if (tile.kind === 'missing') {
    body.append(h('div', `color:${MUTED};font-size:13px;padding:12px 0`,
      `Missing: ${tile.reason}`));
    return;
  }
  const rows = tileRows(tile, filters, choice);
  if (rows === null) {
    body.append(h('div', `color:${MUTED};font-size:13px`, 'No data embedded for this combination.'));
    return;
  }
  if (!rows.length) {
    body.append(h('div', `color:${MUTED};font-size:13px`, 'No rows for these filters.'));
  } else if (tile.kind === 'bar') {
    body.append(barChart(tile, rows));
  } else if (tile.kind === 'line') {
    body.append(lineChart(tile, rows));
  } else if (tile.kind === 'kpi') {
    body.append(kpi(tile, rows));
  } else {
    body.append(table(tile, rows));
  }
  body.dataset.rows = String(rows.length);
  const shown = h('div', `color:${MUTED};font-size:11px`,
    `${rows.length} row${rows.length === 1 ? '' : 's'}${tile.truncated ? ' (preview truncated)' : ''}`);
  shown.className = 'zlens-tile-rows';
  body.append(shown);
}

function filterControl(f, choice, onChange) {
  const wrap = h('label', 'display:inline-flex;gap:4px;align-items:center;margin-right:14px;font-size:13px');
  wrap.className = 'zlens-filter';
  wrap.dataset.filter = f.name;
  wrap.append(h('span', `color:${MUTED}`, f.label));
  const select = (value, first, set) => {
    const node = h('select', 'font:inherit');
    node.append(new Option(first, '*'));
    f.options.forEach(o => node.append(new Option(label(o), String(o))));
    node.value = String(value);
    node.addEventListener('change', () => set(node.value));
    return node;
  };
  if (f.type === 'range') {
    const from = select(choice[f.name][0], 'from start', v => {
      choice[f.name] = [v, choice[f.name][1]]; onChange();
    });
    const to = select(choice[f.name][1], 'to end', v => {
      choice[f.name] = [choice[f.name][0], v]; onChange();
    });
    from.className = 'zlens-filter-from';
    to.className = 'zlens-filter-to';
    wrap.append(from, h('span', '', '–'), to);
  } else {
    const one = select(choice[f.name], 'All', v => { choice[f.name] = v; onChange(); });
    one.className = 'zlens-filter-value';
    wrap.append(one);
  }
  if (!f.options.length) wrap.append(h('span', `color:${MUTED};font-size:11px`, '(no values)'));
  return wrap;
}

/** Draw `view` into `el`. `actions` are extra header buttons: [{label, onClick}]. */
export function renderDashboard(el, view, actions = []) {
  const filters = view.filters || [];
  const choice = Object.fromEntries(filters.map(f => [f.name, f.type === 'range' ? ['*', '*'] : '*']));
  const root = h('div', `font-family:${FONT};font-size:14px;color:var(--jp-ui-font-color1, #1f2328);` +
    'line-height:1.4;max-width:1100px');
  root.className = 'zlens-dashboard';
  root.dataset.trust = view.trust;
  const head = h('div', 'display:flex;gap:8px;align-items:baseline;flex-wrap:wrap;margin-bottom:4px');
  const title = h('div', 'font-size:17px;font-weight:600', view.name);
  title.className = 'zlens-dashboard-title';
  head.append(title, chip(view.trust));
  const layout = h('span', `color:${MUTED};font-size:12px`,
    `layout ${String(view.status).replace('_', ' ')}`);
  head.append(layout);
  for (const action of actions) {
    const button = h('button', `font:inherit;font-size:12px;padding:2px 10px;border-radius:4px;cursor:pointer;` +
      `border:1px solid ${BORDER};background:var(--jp-layout-color2, #f6f8fa);color:inherit`, action.label);
    button.type = 'button';
    button.className = action.className || '';
    button.addEventListener('click', () => action.onClick(button));
    head.append(button);
  }
  root.append(head);
  const reason = h('div', `color:${MUTED};font-size:12px;margin-bottom:8px`, view.trust_reason);
  reason.className = 'zlens-dashboard-reason';
  root.append(reason);
  const bar = h('div', 'margin:6px 0 10px');
  bar.className = 'zlens-filters';
  root.append(bar);
  const grid = h('div', `display:grid;grid-template-columns:repeat(${view.columns || 2}, minmax(0, 1fr));gap:10px`);
  grid.className = 'zlens-tiles';
  root.append(grid);
  const bodies = [];
  for (const tile of view.tiles) {
    const card = h('div', `border:1px solid ${tile.draft ? TRUST_COLOUR.review_required : BORDER};` +
      `border-radius:6px;padding:8px 10px;grid-column:span ${Math.min(tile.width || 1, view.columns || 2)};` +
      (tile.draft ? 'border-style:dashed;' : '') + 'min-width:0');
    card.className = 'zlens-tile';
    card.dataset.tile = tile.title;
    card.dataset.trust = tile.trust;
    const top = h('div', 'display:flex;gap:6px;align-items:center;flex-wrap:wrap');
    top.append(h('span', 'font-weight:600', tile.title), chip(tile.trust));
    if (tile.draft) {
      const badge = chip('review_required', 'DRAFT');
      badge.className = 'zlens-draft-badge';
      top.append(badge);
    }
    card.append(top);
    card.append(h('div', `color:${MUTED};font-size:11px;margin:2px 0 4px`, tile.reason));
    const body = h('div');
    body.className = 'zlens-tile-body';
    card.append(body);
    const bound = filters.filter(f => tile.binds[f.name]).map(f => f.label);
    const free = filters.filter(f => !tile.binds[f.name]).map(f => f.label);
    const foot = h('div', `color:${MUTED};font-size:11px;margin-top:4px`,
      [tile.block ? `block: ${tile.block}` : null,
        tile.draft_block ? `draft block: ${tile.draft_block} (not certified)` : null,
        bound.length ? `filtered by ${bound.join(', ')}` : null,
        free.length ? `not filtered by ${free.join(', ')}` : null].filter(Boolean).join(' · '));
    foot.className = 'zlens-tile-foot';
    card.append(foot);
    grid.append(card);
    bodies.push([body, tile]);
  }
  const redraw = () => bodies.forEach(([body, tile]) => drawBody(body, tile, filters, choice));
  filters.forEach(f => bar.append(filterControl(f, choice, redraw)));
  redraw();
  const foot = h('div', `color:${MUTED};font-size:11px;margin-top:8px`,
    `ZLens dashboard · data as of ${view.generated_at} · trust is per tile; the dashboard's label is its lowest`);
  root.append(foot);
  el.replaceChildren(root);
  return () => el.replaceChildren();
}

function insertCell(el, source, button) {
  const event = new CustomEvent('zlens:insert-cell', {
    bubbles: true, cancelable: true, composed: true, detail: { source, cell_type: 'code' }
  });
  el.dispatchEvent(event);
  if (event.defaultPrevented) {
    button.textContent = 'Inserted below';
    return;
  }
  navigator.clipboard?.writeText(source).then(
    () => { button.textContent = 'Copied (no ZLens lab extension)'; },
    () => { button.textContent = 'Could not insert or copy'; }
  );
}

function render({ model, el }) {
  const draw = () => {
    const view = model.get('view');
    if (!view || !view.tiles) return;
    renderDashboard(el, view, [
      { label: 'Insert DQL cell', className: 'zlens-insert-dashboard',
        onClick: b => insertCell(el, model.get('insert_source'), b) },
      { label: 'Export HTML', className: 'zlens-export-dashboard',
        onClick: () => model.send({ kind: 'export' }) }
    ]);
  };
  model.on('change:view', draw);
  model.on('msg:custom', msg => {
    if (msg && msg.kind === 'exported') {
      const button = el.querySelector('.zlens-export-dashboard');
      if (button) button.textContent = msg.error ? `Export failed: ${msg.error}` : `Saved ${msg.path}`;
    }
  });
  draw();
  return () => model.off('change:view', draw);
}

export default { render };

// The exported file: render the embedded view into the page, no kernel, no network.
if (typeof document !== 'undefined') {
  const data = document.getElementById('zlens-dashboard-data');
  const target = document.getElementById('zlens-dashboard');
  if (data && target) {
    renderDashboard(target, JSON.parse(data.textContent));
  }
}
