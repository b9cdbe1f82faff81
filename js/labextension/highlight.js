// Syntax highlighting for ZLens cell magics in JupyterLab 4 and Notebook 7.
//
// A notebook's code cells all get the kernel's language (IPython). A cell that starts with
// `%%zlens_sql` holds SQL, and one that starts with `%%dql` holds a DQL block (an HCL-like
// language whose `query = """..."""` is SQL). This editor extension watches each editor's
// first line and switches its language in place: JupyterLab's own SQL language for
// `%%zlens_sql`, a small DQL stream language (SQL inside the triple quotes) for `%%dql`.
// It takes the highest precedence, so the IPython language (or another extension's, such as
// jupysql-plugin's, which every editor carries) does not win over it.
import { EditorExtensionRegistry, IEditorExtensionRegistry, IEditorLanguageRegistry } from '@jupyterlab/codemirror';
import { StreamLanguage } from '@codemirror/language';
import { Compartment, EditorState, Prec } from '@codemirror/state';
import { ViewPlugin } from '@codemirror/view';

const MAGIC = /^%%(dql|zlens_sql)(?![\w])/;
const HEAD = 16; // characters of the document that decide (the magic is its first word)

const SQL_WORDS = new Set(
  ('select from where group by order having limit offset join left right inner outer full ' +
    'cross on using as and or not in is null like ilike between case when then else end ' +
    'distinct union all except intersect with recursive over partition window asc desc ' +
    'nulls first last cast filter qualify exists true false interval date timestamp ' +
    'insert update delete create drop alter table view values set into')
    .split(' ')
);
const DQL_WORDS = new Set([
  'block', 'domain', 'term', 'business_view', 'dashboard', 'visualization', 'tests', 'assert',
  'includes', 'parameterPolicy', 'filterBindings'
]);

/** One SQL token (inside a DQL `"""` string): keyword, string, number, comment or name. */
function sqlToken(stream) {
  if (stream.match('--')) {
    while (!stream.eol() && !stream.match('"""', false)) {
      stream.next();
    }
    return 'comment';
  }
  if (stream.match(/^'(?:[^']|'')*'?/)) {
    return 'string';
  }
  if (stream.match(/^\d+(\.\d+)?/)) {
    return 'number';
  }
  if (stream.match(/^@\w+/)) {
    return 'meta'; // @table(...), @metric(...), @block(...), @param(...)
  }
  const word = stream.match(/^[A-Za-z_]\w*/);
  if (word) {
    return SQL_WORDS.has(word[0].toLowerCase()) ? 'keyword' : 'variableName';
  }
  stream.next();
  return /[-+*/<>=!|%]/.test(stream.current()) ? 'operator' : null;
}

/** DQL: `// comments`, strings, `"""` SQL, declarations, `key = value`, numbers, booleans. */
export const dqlLanguage = StreamLanguage.define({
  name: 'dql',
  startState: () => ({ inQuery: false }),
  copyState: state => ({ ...state }),
  token(stream, state) {
    if (state.inQuery) {
      if (stream.match('"""')) {
        state.inQuery = false;
        return 'string';
      }
      return stream.eatSpace() ? null : sqlToken(stream);
    }
    if (stream.eatSpace()) {
      return null;
    }
    if (stream.sol() && stream.match(/^%%\w+/)) {
      return 'meta';
    }
    if (stream.match('//')) {
      stream.skipToEnd();
      return 'comment';
    }
    if (stream.match('"""')) {
      state.inQuery = true;
      return 'string';
    }
    if (stream.match(/^"(?:[^"\\]|\\.)*"?/)) {
      return 'string';
    }
    if (stream.match(/^-?\d+(\.\d+)?/)) {
      return 'number';
    }
    const word = stream.match(/^[A-Za-z_][\w.]*/);
    if (word) {
      if (word[0] === 'true' || word[0] === 'false') {
        return 'bool';
      }
      if (DQL_WORDS.has(word[0])) {
        return 'keyword';
      }
      return stream.match(/^\s*=(?!=)/, false) ? 'propertyName' : 'variableName';
    }
    stream.next();
    return /[=<>!]/.test(stream.current()) ? 'operator' : null;
  },
  languageData: { commentTokens: { line: '//' } }
});

const highlightPlugin = {
  id: 'zlens-jupyter:magic-highlighting',
  description: 'Highlights %%dql and %%zlens_sql cells as DQL and SQL.',
  autoStart: true,
  requires: [IEditorExtensionRegistry, IEditorLanguageRegistry],
  activate: (app, extensions, languages) => {
    const supports = { dql: Prec.highest(dqlLanguage), zlens_sql: null };
    const sqlLoaded = languages
      .getLanguage('text/x-sql')
      .then(spec => {
        supports.zlens_sql = spec && spec.support ? Prec.highest(spec.support) : null;
      })
      .catch(error => console.warn('zlens: no SQL language for %%zlens_sql cells', error));

    const languageFor = text => {
      const match = MAGIC.exec(text);
      return (match && supports[match[1]]) || [];
    };

    extensions.addExtension({
      name: 'zlens-jupyter:magic-highlighting',
      factory: options => {
        const language = new Compartment();
        const source = options?.model?.sharedModel?.getSource?.() ?? '';
        const switcher = EditorState.transactionExtender.of(tr => {
          if (!tr.docChanged) {
            return null;
          }
          const before = tr.startState.doc.sliceString(0, HEAD);
          const after = tr.newDoc.sliceString(0, HEAD);
          if (MAGIC.exec(before)?.[1] === MAGIC.exec(after)?.[1]) {
            return null;
          }
          return { effects: language.reconfigure(languageFor(after)) };
        });
        // An editor made before the SQL language loaded gets it once it has.
        const late = ViewPlugin.define(view => {
          let alive = true;
          sqlLoaded.then(() => {
            if (alive) {
              view.dispatch({
                effects: language.reconfigure(languageFor(view.state.doc.sliceString(0, HEAD)))
              });
            }
          });
          return { destroy: () => { alive = false; } };
        });
        return EditorExtensionRegistry.createImmutableExtension([
          language.of(languageFor(source.slice(0, HEAD))),
          switcher,
          late
        ]);
      }
    });
  }
};

export default highlightPlugin;
