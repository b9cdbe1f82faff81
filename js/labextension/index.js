// ZLens companion extension for JupyterLab 4 and Notebook 7.
//
// Outputs cannot reach the notebook model on their own: answer HTML is static (so it reads in
// nbviewer) and the run panel widget only sees its own element. This plugin listens on each
// notebook panel for three things that bubble up from inside it:
//   - `zlens:interrupt`: the run panel's Stop button. Browser -> kernel comm messages do not
//     reach a busy synchronous cell on ipykernel 7.4, so Stop interrupts the kernel instead
//     and the Python side turns the KeyboardInterrupt into a cancelled run.
//   - `zlens:insert-cell` {source, cell_type}: a widget asks for a new cell below its cell.
//   - clicks on `[data-zlens-insert]` (base64 UTF-8 source) in answer HTML: the same insertion.
//   - clicks on `[data-zlens-ask]` (a clarification's option, a row of `%zlens runs`): the
//     re-asked question (or `%zlens show ID`) goes into a new cell below, which runs at once.
// A reopened notebook's HTML is sanitized (data-* attributes dropped), so every source also
// rides as hidden text the handlers fall back to.
//   - clicks on an answer's Copy SQL button and on its view toggles (see views.js).
// Handled events get preventDefault(), which tells the sender that someone acted on them.
// A second plugin (highlight.js) highlights `%%dql` and `%%zlens_sql` cells as SQL.
import { INotebookTracker, NotebookActions } from '@jupyterlab/notebook';
import highlightPlugin from './highlight.js';
import { copyClicked, enhanceViews, VIEWS_CSS } from './views.js';

const INSERT_SELECTOR = '[data-zlens-insert], .zlens-insert';
const ASK_SELECTOR = '[data-zlens-ask], .zlens-option, .zlens-run-row';

/** Decode base64 holding UTF-8 text (atob alone yields Latin-1 code units). */
function decodeBase64Utf8(encoded) {
  const bytes = Uint8Array.from(atob(encoded), ch => ch.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** The index of the notebook cell whose DOM node contains `target`, or -1. */
function cellIndexOf(panel, target) {
  const cells = panel.content.widgets;
  for (let i = 0; i < cells.length; i++) {
    if (cells[i].node.contains(target)) {
      return i;
    }
  }
  return -1;
}

/** Whether the code cell containing `target` is executing now (its prompt shows `[*]`). */
function cellIsExecuting(panel, target) {
  const index = cellIndexOf(panel, target);
  if (index < 0) {
    return false;
  }
  const cell = panel.content.widgets[index];
  if (cell.model?.executionState === 'running') {
    return true;
  }
  const prompt = cell.node.querySelector('.jp-InputPrompt');
  return Boolean(prompt && prompt.textContent.includes('*'));
}

/** Insert a cell directly below the cell that contains `target`. */
function insertBelow(panel, target, source, cellType) {
  const model = panel.content.model;
  const index = cellIndexOf(panel, target);
  if (!model || index < 0 || typeof source !== 'string') {
    return false;
  }
  const type = cellType === 'markdown' || cellType === 'raw' ? cellType : 'code';
  model.sharedModel.insertCell(index + 1, { cell_type: type, source });
  panel.content.activeCellIndex = index + 1;
  return true;
}

/**
 * The source a clicked insert button carries: its base64 attribute, or (when a sanitizer
 * stripped data-* attributes from untrusted output) the <pre> it names by class.
 */
function sourceOfButton(button) {
  const encoded = button.getAttribute('data-zlens-insert');
  if (encoded) {
    return decodeBase64Utf8(encoded);
  }
  const kind = [...button.classList].find(c => c.startsWith('zlens-insert-'));
  const scope = button.closest('.zlens-finding') || button.closest('.zlens-answer');
  const pre = kind && scope ? scope.querySelector(`pre.zlens-source-${kind.slice(13)}`) : null;
  return pre ? pre.textContent : null;
}

/** The cell a clicked option or runs row asks for: its base64 attribute, or its hidden text. */
function sourceOfAsk(element) {
  const encoded = element.getAttribute('data-zlens-ask');
  if (encoded) {
    return decodeBase64Utf8(encoded);
  }
  const text = element.querySelector('.zlens-ask-source');
  return text ? text.textContent : null;
}

function attach(panel) {
  const node = panel.node;
  const onInterrupt = event => {
    const kernel = panel.sessionContext?.session?.kernel;
    if (!kernel) {
      return;
    }
    // Scope "cell" (a magic's run): interrupt only while the panel's own cell executes, so
    // a panel left from an earlier run can never kill another cell's work.
    const scope = event.detail?.scope || 'cell';
    if (scope === 'cell' && !cellIsExecuting(panel, event.target)) {
      return;
    }
    event.preventDefault();
    kernel.interrupt().catch(error => console.warn('zlens: interrupt failed', error));
  };
  const onInsert = event => {
    const detail = event.detail || {};
    if (insertBelow(panel, event.target, detail.source, detail.cell_type)) {
      event.preventDefault();
    }
  };
  const onClick = event => {
    if (copyClicked(event, node)) {
      return;
    }
    const ask = event.target.closest ? event.target.closest(ASK_SELECTOR) : null;
    if (ask && node.contains(ask)) {
      // A clarification's option: ask again with that choice, in a new cell below, now.
      const source = sourceOfAsk(ask);
      if (source !== null && insertBelow(panel, ask, source, 'code')) {
        event.preventDefault();
        event.stopPropagation();
        ask.setAttribute('data-zlens-asked', 'true');
        NotebookActions.run(panel.content, panel.sessionContext).catch(error =>
          console.warn('zlens: could not run the new cell', error)
        );
      }
      return;
    }
    const button = event.target.closest ? event.target.closest(INSERT_SELECTOR) : null;
    if (!button || !node.contains(button)) {
      return;
    }
    const source = sourceOfButton(button);
    if (source !== null && insertBelow(panel, button, source, 'code')) {
      event.preventDefault();
      event.stopPropagation();
      button.setAttribute('data-zlens-inserted', 'true');
    }
  };
  node.addEventListener('zlens:interrupt', onInterrupt);
  node.addEventListener('zlens:insert-cell', onInsert);
  node.addEventListener('click', onClick);
  // Answers appear as outputs render (and again when a saved notebook opens): give each
  // one its row of view toggles once, at most once per animation frame.
  let scheduled = false;
  const observer = new MutationObserver(() => {
    if (!scheduled) {
      scheduled = true;
      requestAnimationFrame(() => {
        scheduled = false;
        enhanceViews(node);
      });
    }
  });
  observer.observe(node, { childList: true, subtree: true });
  enhanceViews(node);
  panel.disposed.connect(() => {
    observer.disconnect();
    node.removeEventListener('zlens:interrupt', onInterrupt);
    node.removeEventListener('zlens:insert-cell', onInsert);
    node.removeEventListener('click', onClick);
  });
}

const plugin = {
  id: 'zlens-jupyter:actions',
  description: 'Stop interrupts the kernel; ZLens answer buttons insert cells below.',
  autoStart: true,
  requires: [INotebookTracker],
  activate: (app, tracker) => {
    tracker.forEach(attach);
    tracker.widgetAdded.connect((_, panel) => attach(panel));
    if (!document.getElementById('zlens-views-style')) {
      const style = document.createElement('style');
      style.id = 'zlens-views-style';
      style.textContent = VIEWS_CSS;
      document.head.append(style);
    }
    // Lets a page (and the browser tests) see that the extension is active.
    document.body.dataset.zlensExtension = 'active';
  }
};

export default [plugin, highlightPlugin];
