// An answer card's views (Table, Chart, SQL, Trace) and its Copy SQL button, in JupyterLab
// and Notebook 7.
//
// The card's HTML is static: each view is a <details> with its own summary, which reads as a
// toggle in nbviewer, on GitHub and in nbconvert's HTML. Here the summaries are gathered into
// one row of toggle buttons above the views (aria-pressed mirrors each <details>' `open`).
// Everything is found by class: JupyterLab's sanitizer strips data-* attributes from the HTML
// of a reopened notebook.

const VIEWS = '.zlens-views:not(.zlens-tabbed)';

export const VIEWS_CSS = `
.zlens-tabbed > details.zlens-view > summary { display: none; }
.zlens-tabbed > details.zlens-view:not([open]) { display: none; }
/* Label chips, orbs and the finished panel's frame, by class: a reopened (untrusted)
   notebook's sanitizer drops inline styles that use theme variables. Inline styles, where
   kept, win over these. */
.zlens-trust, .zl-panel-static .zl-trust {
  display: inline-block; border: 1px solid currentColor; border-radius: 10px; padding: 0 7px;
  font-weight: 600; font-size: 12px;
}
.zlens-trust-certified, .zl-panel-static .zl-trust-certified { color: var(--jp-success-color1, #388e3c); }
.zlens-trust-grounded, .zl-panel-static .zl-trust-grounded { color: var(--jp-brand-color1, #1976d2); }
.zlens-trust-review_required, .zl-panel-static .zl-trust-review_required { color: var(--jp-warn-color1, #f57c00); }
.zlens-trust-blocked, .zl-panel-static .zl-trust-blocked { color: var(--jp-error-color1, #d32f2f); }
.zlens-trust-not_applicable, .zlens-trust-cancelled, .zl-panel-static .zl-trust-not_applicable,
.zl-panel-static .zl-trust-cancelled { color: var(--jp-ui-font-color2, #616161); }
.zl-panel-static {
  border: 1px solid var(--jp-border-color2, #d0d7de); border-radius: 6px; padding: 3px 10px;
}
.zl-panel-static .zl-orb {
  display: inline-block; width: 10px; height: 10px; border-radius: 50%; vertical-align: middle;
  background: var(--jp-ui-font-color2, #757575);
}
.zl-panel-static .zl-orb-done { background: var(--jp-success-color1, #388e3c); }
.zl-panel-static .zl-orb-needs_review { background: var(--jp-warn-color1, #f57c00); }
.zl-panel-static .zl-orb-blocked, .zl-panel-static .zl-orb-failed { background: var(--jp-error-color1, #d32f2f); }
.zl-panel-static .zl-orb-cancelled { background: var(--jp-ui-font-color3, #9e9e9e); }
/* Sources the buttons fall back to: hidden by their attribute, which JupyterLab's sanitizer
   drops from a reopened notebook's HTML. */
.zlens-ask-source, pre.zlens-source-sql, pre.zlens-source-finding { display: none !important; }
/* Insert and Copy work only here: the card's HTML keeps them hidden elsewhere. */
.zlens-answer button.zlens-insert[hidden], .zlens-answer button.zlens-copy[hidden] {
  display: inline-block;
}
.zlens-tabbar { display: flex; flex: 1 1 100%; gap: 4px; margin: 2px 0 4px; }
.zlens-tabbar button {
  font: inherit; font-size: 12px; padding: 1px 10px; border-radius: 10px; cursor: pointer;
  border: 1px solid var(--jp-border-color2, #d0d7de); background: transparent;
  color: var(--jp-ui-font-color2, #616161);
}
.zlens-tabbar button[aria-pressed='true'] {
  background: var(--jp-layout-color2, #f6f8fa); color: var(--jp-ui-font-color1, #1f2328);
  border-color: var(--jp-brand-color1, #1976d2);
}
.zlens-tabbar button .zlens-view-note { color: var(--jp-ui-font-color2, #616161); }
`;

function viewKind(details) {
  const cls = [...details.classList].find(c => c.startsWith('zlens-view-'));
  return cls ? cls.slice('zlens-view-'.length) : '';
}

/** Give every answer under `root` that has none yet its row of view toggles. */
export function enhanceViews(root) {
  for (const views of root.querySelectorAll(VIEWS)) {
    const panes = [...views.children].filter(el => el.matches('details.zlens-view'));
    if (!panes.length) {
      continue;
    }
    const bar = document.createElement('div');
    bar.className = 'zlens-tabbar';
    bar.setAttribute('role', 'toolbar');
    bar.setAttribute('aria-label', 'Answer views');
    for (const pane of panes) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = `zlens-tab zlens-tab-${viewKind(pane)}`;
      const summary = pane.querySelector(':scope > summary');
      for (const part of summary ? summary.childNodes : []) {
        button.append(part.cloneNode(true));
      }
      button.setAttribute('aria-pressed', String(pane.open));
      button.addEventListener('click', event => {
        event.preventDefault();
        event.stopPropagation();
        pane.open = !pane.open;
        button.setAttribute('aria-pressed', String(pane.open));
      });
      bar.append(button);
    }
    views.prepend(bar);
    views.classList.add('zlens-tabbed');
  }
}

async function writeClipboard(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard permission (or an insecure page): the old way, inside the click.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const done = document.execCommand('copy');
    area.remove();
    return done;
  }
}

/** Handle a click on an answer's Copy SQL button; true when it was one. */
export function copyClicked(event, root) {
  const button = event.target.closest ? event.target.closest('.zlens-copy-sql') : null;
  if (!button || !root.contains(button)) {
    return false;
  }
  event.preventDefault();
  event.stopPropagation();
  const answer = button.closest('.zlens-answer');
  const pre = answer ? answer.querySelector('pre.zlens-sql') : null;
  if (!pre) {
    return true;
  }
  const label = button.dataset.zlensLabel || button.textContent;
  button.dataset.zlensLabel = label;
  writeClipboard(pre.textContent.trim() + '\n').then(done => {
    button.textContent = done ? 'Copied' : 'Copy failed: open SQL and select it';
    button.setAttribute('data-zlens-copied', String(done));
    setTimeout(() => {
      button.textContent = label;
    }, 2000);
  });
  return true;
}
