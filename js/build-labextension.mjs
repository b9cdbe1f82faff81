// Build the prebuilt JupyterLab extension offline.
//
// `jupyter labextension build` (JupyterLab 4.6) hands off to jupyter-builder, which looks up
// @jupyterlab/core-meta on the network. The builder script itself works offline when it is
// given the installed JupyterLab's staging folder as the core path, so we find that folder:
// $JUPYTERLAB_STAGING, then a Python that can import jupyterlab (pip's isolated build
// environment exposes its packages to a child `python`), then site-packages next to PATH entries.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';

const FIND_STAGING =
  'import os, jupyterlab; print(os.path.join(os.path.dirname(jupyterlab.__file__), "staging"))';

function fromPython() {
  for (const python of [process.env.PYTHON, 'python3', 'python'].filter(Boolean)) {
    try {
      const out = execFileSync(python, ['-c', FIND_STAGING], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore']
      }).trim();
      if (existsSync(join(out, 'package.json'))) {
        return out;
      }
    } catch {
      // this interpreter has no jupyterlab; try the next one
    }
  }
  return null;
}

function fromPath() {
  for (const bin of (process.env.PATH || '').split(delimiter)) {
    const lib = join(dirname(bin), 'lib');
    if (!existsSync(lib)) {
      continue;
    }
    for (const version of readdirSync(lib).filter(name => name.startsWith('python3'))) {
      const staging = join(lib, version, 'site-packages', 'jupyterlab', 'staging');
      if (existsSync(join(staging, 'package.json'))) {
        return staging;
      }
    }
  }
  return null;
}

const staging = process.env.JUPYTERLAB_STAGING || fromPython() || fromPath();
if (!staging) {
  console.error(
    'zlens: cannot find JupyterLab (needed to build the lab extension). ' +
      'Install jupyterlab>=4 or set JUPYTERLAB_STAGING to <site-packages>/jupyterlab/staging.'
  );
  process.exit(1);
}
const require = createRequire(import.meta.url);
const builder = require.resolve('@jupyterlab/builder/lib/build-labextension.js');
const root = join(dirname(new URL(import.meta.url).pathname), '..');
console.log(`zlens: building the lab extension against ${staging}`);
execFileSync(process.execPath, [builder, '--core-path', staging, root], { stdio: 'inherit' });
