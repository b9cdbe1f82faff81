// The ZLens run panel: an anywidget view of one agent run.
//
// Durable state lives in synced traits (`orb`, `phase`, `budget`, `final_run`); the engine's
// events arrive in batches (one custom message per batch, at most ~50 ms after the events)
// and are folded into a small per-model state at O(1) cost each. Messages sent before the ES module loaded are lost, so `initialize` asks
// Python for a replay (`hello`). Once `final_run` is set, the panel renders from it alone,
// which is what a saved notebook shows when it is reopened.
import CSS from './panel.css';

// The same words as zlens_jupyter/labels.py (chip, orb, history, CLI, README).
const ORB_LABEL = {
  idle: 'idle', planning: 'planning', working: 'working', verifying: 'verifying',
  repairing: 'repairing', done: 'done', needs_review: 'review required',
  clarify: 'needs clarification', blocked: 'blocked', cancelled: 'cancelled', failed: 'failed'
};
const FINISHED_ORBS = new Set(['done', 'needs_review', 'clarify', 'blocked', 'cancelled', 'failed']);
const TRUST_LABEL = {
  certified: 'certified', grounded: 'grounded', review_required: 'review required',
  blocked: 'blocked', not_applicable: 'not applicable', cancelled: 'cancelled'
};
const CANCELLED_STATUSES = new Set(['cancelled', 'interrupted']);
/** The chip's key: the trust label, except a run the user stopped reads `cancelled`. */
export const chipKey = (status, trust) => (CANCELLED_STATUSES.has(status) ? 'cancelled' : trust);
const PHASES = [['plan', 'Plan'], ['work', 'Work'], ['verify', 'Verify'], ['done', 'Done']];
const TERMINAL = new Set(['run.completed', 'run.failed', 'run.cancelled']);
const MAX_LOG = 400; // lines kept in the DOM; older ones are dropped
const MAX_EVALS = 24; // evaluations shown per step

// One state per model, shared by every view of it and fed from `initialize`.
const stores = new Map();

function emptyState() {
  return {
    steps: new Map(), current: null, lastSeq: 0, remaining: null, log: [],
    usage: { steps: 0, repairs: 0, escalations: 0, tokens: 0, cost_usd: 0, elapsed_s: 0 },
    trust: null, trustReason: '', status: null, summary: '', insert: null, startedAt: null,
    activity: ''
  };
}

function stepAt(state, index, route) {
  const key = index ?? state.current ?? 0;
  let step = state.steps.get(key);
  if (!step) {
    step = { index: key, route: route || '', goal: '', status: 'running', attempts: 0,
      repairs: 0, escalatedTo: null, from: null, evals: [] };
    state.steps.set(key, step);
  }
  state.current = key;
  return step;
}

/** Fold one event into the state; returns the step it touched (or null), or false if stale. */
export function applyEvent(state, ev) {
  if (ev.seq && ev.seq <= state.lastSeq) {
    return false;
  }
  state.lastSeq = ev.seq || state.lastSeq;
  if (state.startedAt === null) {
    const at = Date.parse(ev.at || '');
    state.startedAt = Number.isNaN(at) ? Date.now() : Math.min(at, Date.now());
  }
  state.log.push(ev);
  if (state.log.length > MAX_LOG) {
    state.log.shift();
  }
  const p = ev.payload || {};
  if (p.remaining) {
    state.remaining = p.remaining;
  }
  let step = null;
  switch (ev.type) {
    case 'step.started':
      step = stepAt(state, p.step, ev.route);
      step.route = ev.route || step.route;
      step.goal = ev.message;
      state.usage.steps = Math.max(state.usage.steps, (p.step ?? 0) + 1);
      break;
    case 'route.decided':
      step = stepAt(state, null, ev.route);
      step.route = ev.route || step.route;
      step.from = p.escalated_from || step.from;
      break;
    case 'executor.started':
      step = stepAt(state, null, ev.route);
      step.attempts += 1;
      state.activity = '';
      break;
    case 'tool.called':
      // What the step is doing now, in words ("comparing 2025-12 with 2025-11 by region").
      state.activity = (p.arguments && p.arguments.purpose) || '';
      break;
    case 'evaluation.recorded':
      step = stepAt(state, p.step, ev.route);
      if (step.evals.length < MAX_EVALS) {
        step.evals.push({ passed: p.passed, severity: p.severity, label: p.label,
          message: p.message, attempt: p.attempt });
      }
      break;
    case 'repair.attempted':
      step = stepAt(state, p.step, ev.route);
      step.repairs = p.repair ?? step.repairs + 1;
      state.usage.repairs += 1;
      break;
    case 'escalated':
      step = stepAt(state, p.step, null);
      step.escalatedTo = ev.route;
      state.usage.escalations += 1;
      break;
    case 'step.completed':
      step = stepAt(state, p.step, ev.route);
      step.status = ev.status || step.status;
      step.attempts = p.attempts ?? step.attempts;
      step.repairs = p.repairs ?? step.repairs;
      break;
    default:
      if (TERMINAL.has(ev.type)) {
        state.status = ev.status;
        state.trust = ev.trust_state;
        state.trustReason = p.trust_reason || '';
        state.summary = ev.message;
        if (p.usage) {
          state.usage = { ...p.usage };
        }
      }
  }
  return step;
}

/** The state a finished run record (the compact `final_run` trait) describes. */
export function stateFromRun(run) {
  const state = emptyState();
  for (const s of run.steps || []) {
    const evals = (s.attempts || []).flatMap(a => a.evaluations || []).slice(0, MAX_EVALS);
    state.steps.set(s.index, {
      index: s.index, route: s.route, goal: s.goal, status: s.status,
      attempts: (s.attempts || []).length, repairs: s.repairs, escalatedTo: s.escalated_to,
      from: s.escalated_from, evals
    });
  }
  state.log = (run.events || []).slice(-MAX_LOG);
  state.lastSeq = state.log.length ? state.log[state.log.length - 1].seq : 0;
  state.usage = { ...state.usage, ...(run.usage || {}) };
  state.status = run.status;
  state.trust = run.trust_state;
  state.trustReason = run.trust_reason || '';
  state.summary = run.summary || '';
  state.insert = run.insert || null;
  return state;
}

function storeFor(model) {
  const key = model.get('_panel_id') || 'default';
  let store = stores.get(key);
  if (!store) {
    store = { key, state: emptyState(), views: new Set() };
    stores.set(key, store);
  }
  return store;
}

function hasFinal(model) {
  const run = model.get('final_run');
  return Boolean(run && run.id);
}

// ---- DOM ------------------------------------------------------------------------------------

function h(tag, className, text) {
  const node = document.createElement(tag);
  if (className) {
    node.className = className;
  }
  if (text !== undefined && text !== null) {
    node.textContent = String(text);
  }
  return node;
}

const label = value => String(value ?? '').replaceAll('_', ' ');
// Routes in words, as zlens_jupyter/labels.py ROUTE_WORDS says them.
const ROUTE_LABEL = {
  certified_answer: 'certified block', generated_answer: 'generated from the catalog',
  research: 'research', sql_cell: 'SQL cell', dql_block_draft: 'block draft',
  app_build: 'dashboard', clarify: 'clarifying question', converse: 'conversation'
};
const routeLabel = value => ROUTE_LABEL[value] || label(value);

function used(state, budget, key, remainingKey, budgetKey) {
  const direct = state.usage[key];
  if (state.remaining && budget[budgetKey] !== undefined && state.remaining[remainingKey] !== undefined) {
    return Math.max(direct || 0, budget[budgetKey] - state.remaining[remainingKey]);
  }
  return direct || 0;
}

function meters(state, budget, offline) {
  const repairsMax = budget.max_repairs_per_step ?? 2;
  let worstStep = 0;
  state.steps.forEach(s => { worstStep = Math.max(worstStep, s.repairs || 0); });
  const cost = used(state, budget, 'cost_usd', 'cost_usd', 'max_cost_usd');
  let seconds = used(state, budget, 'elapsed_s', 'seconds', 'deadline_s');
  if (!state.status && state.startedAt !== null) {
    seconds = Math.max(seconds, (Date.now() - state.startedAt) / 1000); // live while running
  }
  const all = [
    ['steps', state.usage.steps, budget.max_steps, `${state.usage.steps} / ${budget.max_steps ?? '?'}`],
    ['repairs', worstStep, repairsMax, `${state.usage.repairs} (≤ ${repairsMax} per step)`],
    ['tokens', used(state, budget, 'tokens', 'tokens', 'max_tokens'), budget.max_tokens,
      `${used(state, budget, 'tokens', 'tokens', 'max_tokens').toLocaleString()}`],
    ['cost', cost, budget.max_cost_usd, `$${cost.toFixed(3)}`],
    ['seconds', seconds, budget.deadline_s, `${seconds.toFixed(1)} s`]
  ];
  // Offline runs spend no tokens and no money: no meters that can only read zero.
  return offline ? all.filter(([name]) => name !== 'tokens' && name !== 'cost') : all;
}

function renderStep(step) {
  const row = h('li', 'zl-step');
  row.dataset.step = step.index;
  row.dataset.status = step.status;
  const head = h('div', 'zl-step-head');
  head.append(h('span', 'zl-step-no', step.index + 1), h('span', 'zl-chip zl-route', routeLabel(step.route)));
  head.append(h('span', `zl-step-status zl-s-${step.status}`, label(step.status)));
  const counts = [`${step.attempts} attempt${step.attempts === 1 ? '' : 's'}`];
  if (step.repairs) {
    counts.push(`${step.repairs} repair${step.repairs === 1 ? '' : 's'}`);
  }
  if (step.from) {
    counts.push(`escalated from ${routeLabel(step.from)}`);
  }
  if (step.escalatedTo) {
    counts.push(`escalated to ${routeLabel(step.escalatedTo)}`);
  }
  head.append(h('span', 'zl-muted', counts.join(' · ')));
  row.append(head);
  if (step.goal) {
    row.append(h('div', 'zl-muted zl-goal', step.goal));
  }
  if (step.evals.length) {
    const list = h('ul', 'zl-evals');
    for (const e of step.evals) {
      const item = h('li', `zl-eval ${e.passed ? 'zl-pass' : 'zl-fail'} zl-sev-${e.severity}`);
      item.append(h('span', 'zl-mark', e.passed ? '✓' : '✗'), h('span', 'zl-eval-label', e.label));
      if (!e.passed) {
        item.append(h('span', 'zl-chip zl-sev', e.severity));
      }
      if (e.message) {
        item.append(h('span', 'zl-muted', e.message));
      }
      list.append(item);
    }
    row.append(list);
  }
  return row;
}

function logLine(ev) {
  const line = h('li', `zl-log-${String(ev.type).replace('.', '-')}`);
  line.append(h('span', 'zl-muted', `${ev.seq ?? ''} ${String(ev.at || '').slice(11, 23)}`));
  line.append(h('span', 'zl-log-type', ev.type));
  line.append(h('span', '', ev.message || ''));
  return line;
}

function createView(model, el, store) {
  const root = h('div', 'zl-panel');
  const head = h('div', 'zl-head');
  const orb = h('span', 'zl-orb');
  const title = h('div', 'zl-title');
  const question = h('div', 'zl-question');
  const status = h('div', 'zl-status zl-muted');
  const stop = h('button', 'zl-button zl-stop', 'Stop');
  stop.type = 'button';
  stop.title = model.get('background') ? 'Stop this run' : 'Stop the run (interrupts the kernel)';
  title.append(question, status);
  head.append(orb, title, stop);
  const tracker = h('ol', 'zl-tracker');
  const phaseItems = PHASES.map(([key, text]) => {
    const item = h('li', 'zl-phase', text);
    item.dataset.phase = key;
    tracker.append(item);
    return item;
  });
  const budgetBox = h('div', 'zl-budget');
  const steps = h('ol', 'zl-steps');
  const outcome = h('div', 'zl-outcome');
  const actions = h('div', 'zl-actions');
  const note = h('div', 'zl-note zl-muted');
  const log = h('details', 'zl-log');
  const logSummary = h('summary', '', 'Event log');
  const logList = h('ol', 'zl-log-lines');
  log.append(logSummary, logList);
  root.append(head, tracker, budgetBox, steps, outcome, actions, note, log);
  el.append(root);
  const stepRows = new Map();
  const visited = new Set();
  let stoppedVia = null; // 'interrupt' (the lab extension acted) or 'message', once Stop is clicked

  function renderOrb() {
    const state = model.get('orb') || 'idle';
    const phase = model.get('phase') || 'idle';
    root.dataset.orb = state;
    orb.dataset.state = state;
    orb.title = ORB_LABEL[state] || state;
    visited.add(phase);
    for (const item of phaseItems) {
      const key = item.dataset.phase;
      item.classList.toggle('zl-current', key === phase);
      item.classList.toggle('zl-visited', visited.has(key) && key !== phase);
    }
    const current = store.state.steps.get(store.state.current);
    const running = current && (!store.state.status || CANCELLED_STATUSES.has(store.state.status));
    const stoppedHere = state === 'cancelled' ? ' · stopped at' : '';
    const doing = running && store.state.activity && !store.state.status ? ` · ${store.state.activity}…` : '';
    const where = running ? `${stoppedHere} · step ${current.index + 1} · ${routeLabel(current.route)}${doing}` : '';
    status.textContent = (ORB_LABEL[state] || state) + where;
    tracker.classList.toggle('zl-stopped', state === 'cancelled');
    const finished = FINISHED_ORBS.has(state) || hasFinal(model);
    stop.disabled = finished || !model.get('stoppable');
    if (finished && stoppedVia) {
      stop.textContent = 'Stop';
      note.textContent = stoppedVia === 'interrupt' ? 'Stopped: the kernel was interrupted.' : 'Stopped.';
      stoppedVia = null;
    }
  }

  function renderBudget() {
    budgetBox.replaceChildren();
    for (const [name, value, max, text] of meters(store.state, model.get('budget') || {}, model.get('offline'))) {
      const meter = h('div', 'zl-meter');
      meter.dataset.meter = name;
      const bar = h('span', 'zl-bar');
      const fill = h('span', 'zl-fill');
      fill.style.width = `${max ? Math.min(100, (100 * value) / max) : 0}%`;
      bar.append(fill);
      meter.append(h('span', 'zl-meter-name', name), bar, h('span', 'zl-meter-value', text));
      budgetBox.append(meter);
    }
  }

  function renderStepRow(step) {
    const row = renderStep(step);
    const old = stepRows.get(step.index);
    if (old) {
      old.replaceWith(row);
    } else {
      steps.append(row);
    }
    stepRows.set(step.index, row);
  }

  function renderOutcome() {
    const s = store.state;
    outcome.replaceChildren();
    if (!s.trust) {
      return;
    }
    const key = chipKey(s.status, s.trust);
    const chip = h('span', `zl-chip zl-trust zl-trust-${key}`, TRUST_LABEL[key] || label(key));
    chip.dataset.trust = key;
    outcome.append(chip, h('span', 'zl-reason', s.trustReason));
    if (s.summary) {
      outcome.append(h('div', 'zl-muted zl-summary', s.summary));
    }
    renderActions();
  }

  function renderActions() {
    actions.replaceChildren();
    const sources = store.state.insert || {};
    for (const [key, text] of [['dql', 'Insert as DQL cell'], ['sql', 'Insert SQL cell']]) {
      if (!sources[key]) {
        continue;
      }
      const button = h('button', `zl-button zl-insert-${key}`, text);
      button.type = 'button';
      button.addEventListener('click', () => insertCell(sources[key]));
      actions.append(button);
    }
  }

  function insertCell(source) {
    const event = new CustomEvent('zlens:insert-cell', {
      bubbles: true, cancelable: true, composed: true, detail: { source, cell_type: 'code' }
    });
    el.dispatchEvent(event);
    if (event.defaultPrevented) {
      note.textContent = 'Inserted a cell below.';
      return;
    }
    // No ZLens lab extension here (e.g. classic viewers): the clipboard is the fallback.
    navigator.clipboard?.writeText(source).then(
      () => { note.textContent = 'Copied to the clipboard (the ZLens lab extension is not active).'; },
      () => { note.textContent = 'Could not insert or copy; the source is in the answer below.'; }
    );
  }

  function appendLog(ev) {
    if (ev.type === 'answer.retracted') {
      // The streamed words were refused by a gate: strike them through, keep them visible.
      logList.querySelectorAll('.zl-log-answer-delta').forEach(li => li.classList.add('zl-withdrawn'));
    }
    logList.append(logLine(ev));
    if (logList.childElementCount > MAX_LOG) {
      logList.firstElementChild.remove();
    }
    logSummary.textContent = `Event log (${store.state.log.length >= MAX_LOG ? `last ${MAX_LOG}` : store.state.log.length})`;
  }

  function full() {
    question.textContent = model.get('question') || '';
    steps.replaceChildren();
    stepRows.clear();
    [...store.state.steps.values()].sort((a, b) => a.index - b.index).forEach(renderStepRow);
    logList.replaceChildren();
    store.state.log.forEach(appendLog);
    renderBudget();
    renderOutcome();
    renderOrb();
  }

  function event(ev, step) {
    if (step) {
      renderStepRow(step);
    }
    appendLog(ev);
    if (ev.payload && (ev.payload.remaining || ev.payload.usage) || ev.type === 'step.started' || ev.type === 'repair.attempted') {
      renderBudget();
    }
    if (TERMINAL.has(ev.type)) {
      renderOutcome();
    }
    renderOrb();
  }

  stop.addEventListener('click', () => {
    if (stop.disabled || !model.get('stoppable')) {
      return;
    }
    send(model, { kind: 'stop' });
    stop.disabled = true;
    stop.textContent = 'Stopping…';
    if (model.get('background')) {
      // A background run hears `stop` at once and cancels itself; interrupting the kernel
      // would kill whatever other cell is running.
      stoppedVia = 'message';
      note.textContent = 'Stopping this run…';
      return;
    }
    // A synchronous run cannot hear comm messages (ipykernel 7.4 holds them until the cell
    // ends), so the lab extension interrupts the kernel, and only while this panel's own cell
    // executes (scope "cell") or, for a run inside a widget callback, while the kernel works.
    const interrupt = new CustomEvent('zlens:interrupt', {
      bubbles: true, cancelable: true, composed: true,
      detail: { scope: model.get('interrupt_scope') || 'cell' }
    });
    el.dispatchEvent(interrupt);
    stoppedVia = interrupt.defaultPrevented ? 'interrupt' : 'message';
    note.textContent = interrupt.defaultPrevented
      ? 'Interrupting the kernel…'
      : 'Stop requested. If the run continues, use Kernel → Interrupt (the ZLens lab extension is not active).';
  });

  // The seconds meter moves while the run works (events can be seconds apart).
  const ticker = setInterval(() => {
    if (!store.state.status && !hasFinal(model) && store.state.startedAt !== null) {
      const value = budgetBox.querySelector('[data-meter=seconds] .zl-meter-value');
      const seconds = (Date.now() - store.state.startedAt) / 1000;
      if (value) {
        value.textContent = `${seconds.toFixed(1)} s`;
      }
    }
  }, 200);

  return { full, event, renderOrb, renderBudget, dispose: () => clearInterval(ticker) };
}

/** Send to Python; a view restored from saved widget state has no kernel to send to. */
function send(model, message) {
  try {
    model.send(message);
  } catch (error) {
    console.debug('zlens: no kernel connection for', message.kind, error);
  }
}

function fromFinalRun(model, store) {
  if (hasFinal(model)) {
    store.state = stateFromRun(model.get('final_run'));
  }
}

function initialize({ model }) {
  const store = storeFor(model);
  fromFinalRun(model, store);
  const onMessage = msg => {
    if ((msg.kind === 'events' || msg.kind === 'event') && !hasFinal(model)) {
      for (const ev of msg.kind === 'events' ? msg.events || [] : [msg.event]) {
        const step = applyEvent(store.state, ev);
        if (step !== false) {
          store.views.forEach(view => view.event(ev, step));
        }
      }
    } else if (msg.kind === 'replay' && !hasFinal(model)) {
      store.state = emptyState();
      (msg.events || []).forEach(ev => applyEvent(store.state, ev));
      store.views.forEach(view => view.full());
    } else if (msg.kind === 'reset') {
      store.state = emptyState();
      store.views.forEach(view => view.full());
    }
  };
  const onFinal = () => {
    fromFinalRun(model, store);
    store.views.forEach(view => view.full());
  };
  model.on('msg:custom', onMessage);
  model.on('change:final_run', onFinal);
  if (!hasFinal(model)) {
    send(model, { kind: 'hello' });
  }
  return () => {
    model.off('msg:custom', onMessage);
    model.off('change:final_run', onFinal);
    stores.delete(store.key);
  };
}

function render({ model, el }) {
  injectStyle();
  const store = storeFor(model);
  const view = createView(model, el, store);
  store.views.add(view);
  const onOrb = () => view.renderOrb();
  const onBudget = () => view.renderBudget();
  model.on('change:orb', onOrb);
  model.on('change:phase', onOrb);
  model.on('change:budget', onBudget);
  model.on('change:question', view.full);
  model.on('change:stoppable', onOrb);
  view.full();
  return () => {
    view.dispose();
    model.off('change:stoppable', onOrb);
    store.views.delete(view);
    model.off('change:orb', onOrb);
    model.off('change:phase', onOrb);
    model.off('change:budget', onBudget);
    model.off('change:question', view.full);
  };
}

// ---- style ---------------------------------------------------------------------------------

function injectStyle() {
  if (document.getElementById('zlens-panel-style')) {
    return;
  }
  const style = document.createElement('style');
  style.id = 'zlens-panel-style';
  style.textContent = CSS;
  document.head.append(style);
}

export default { initialize, render };
