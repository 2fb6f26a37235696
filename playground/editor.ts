/**
 * The model editor: CodeMirror 6 with the .delta language, and the model's error shown where
 * it is: a wavy underline from the ModelError's line and column over the token there, the
 * line tinted, and the message in a tooltip on hover.
 */
import { basicSetup } from 'codemirror';
import { EditorState, StateEffect, StateField, type Extension } from '@codemirror/state';
import { Decoration, EditorView, hoverTooltip, keymap, type DecorationSet } from '@codemirror/view';
import { deltaHighlighting, deltaLanguage } from './delta-language.js';
import type { Problem } from './protocol.js';

/** Where a problem is in the text: [from, to) of the token at its line and column. */
export interface ProblemRange {
  from: number;
  to: number;
  line: number;
  message: string;
}

const setProblem = StateEffect.define<ProblemRange | null>();

const problemField = StateField.define<ProblemRange | null>({
  create: () => null,
  update(value, tr) {
    for (const e of tr.effects) if (e.is(setProblem)) return e.value;
    // (edits move the mark with the text until the next check replaces it)
    if (value && tr.docChanged) {
      const from = tr.changes.mapPos(value.from, 1);
      const to = Math.max(from, tr.changes.mapPos(value.to, -1));
      return { ...value, from, to, line: tr.state.doc.lineAt(from).number };
    }
    return value;
  },
});

const problemMarks = EditorView.decorations.compute([problemField], (state): DecorationSet => {
  const p = state.field(problemField);
  if (!p) return Decoration.none;
  const line = state.doc.line(Math.min(p.line, state.doc.lines));
  const ranges = [Decoration.line({ class: 'cm-ds-error-line' }).range(line.from)];
  if (p.to > p.from) ranges.push(Decoration.mark({ class: 'cm-ds-error' }).range(p.from, p.to));
  return Decoration.set(ranges, true);
});

const problemTooltip = hoverTooltip((view, pos) => {
  const p = view.state.field(problemField);
  if (!p) return null;
  const line = view.state.doc.lineAt(pos);
  if (line.number !== p.line) return null;
  return {
    pos: Math.max(p.from, line.from),
    end: p.to,
    above: true,
    create: () => {
      const dom = document.createElement('div');
      dom.className = 'cm-ds-tooltip';
      dom.textContent = p.message;
      return { dom };
    },
  };
});

/**
 * The range of a problem at LINE:COL (1-based, UTF-16 columns as the lexer counts them): the
 * name, number or operator starting there; the last character when the column is past the
 * end of the line (an unfinished statement).
 */
export function problemRange(state: EditorState, problem: Problem): ProblemRange {
  const line = state.doc.line(Math.max(1, Math.min(problem.line, state.doc.lines)));
  const text = line.text;
  let start = Math.min(Math.max(problem.column - 1, 0), text.length);
  if (start === text.length && start > 0) start--;
  const rest = text.slice(start);
  const token = /^([A-Za-z_][A-Za-z0-9_]*'*|\d+(\.\d*)?([eE][+-]?\d+)?|:=|<=|>=|==|!=|\S)/.exec(rest);
  const length = token ? token[0].length : 0;
  return { from: line.from + start, to: line.from + start + length, line: line.number, message: problem.message };
}

export interface ModelEditor {
  view: EditorView;
  text(): string;
  setText(text: string): void;
  showProblem(problem: Problem | null): void;
  /** puts the cursor at a problem's place and focuses the editor */
  reveal(problem: Problem): void;
}

const theme = EditorView.theme({
  '&': { height: '100%', fontSize: '13.5px', backgroundColor: '#fff' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.55' },
  '.cm-gutters': { backgroundColor: '#f8fafc', borderRight: '1px solid #e5e7eb', color: '#9ca3af' },
  '.cm-activeLine': { backgroundColor: '#f5f8ff' },
  '.cm-activeLineGutter': { backgroundColor: '#eef2ff' },
  '&.cm-focused': { outline: 'none' },
});

export function createEditor(
  parent: HTMLElement,
  doc: string,
  handlers: { change(): void; run(): void; stop(): void },
): ModelEditor {
  const keys = keymap.of([
    { key: 'Mod-Enter', run: () => (handlers.run(), true) },
    { key: 'Shift-Enter', run: () => (handlers.run(), true) },
    { key: 'Escape', run: () => (handlers.stop(), false) },
  ]);
  const extensions: Extension[] = [
    keys,
    basicSetup,
    deltaLanguage,
    deltaHighlighting,
    problemField,
    problemMarks,
    problemTooltip,
    theme,
    EditorView.lineWrapping,
    EditorView.updateListener.of((u) => {
      if (u.docChanged) handlers.change();
    }),
  ];
  const view = new EditorView({ state: EditorState.create({ doc, extensions }), parent });
  return {
    view,
    text: () => view.state.doc.toString(),
    setText(text: string) {
      view.dispatch({
        changes: { from: 0, to: view.state.doc.length, insert: text },
        effects: setProblem.of(null),
        selection: { anchor: 0 },
        scrollIntoView: true,
      });
    },
    showProblem(problem: Problem | null) {
      const range = problem && problem.kind === 'model' ? problemRange(view.state, problem) : null;
      view.dispatch({ effects: setProblem.of(range) });
    },
    reveal(problem: Problem) {
      if (problem.kind !== 'model') return;
      const r = problemRange(view.state, problem);
      view.dispatch({ selection: { anchor: r.from, head: r.to }, scrollIntoView: true });
      view.focus();
    },
  };
}
