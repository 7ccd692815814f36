import type { Plugin } from 'vite';

const STYLE_HOOK_FACTORIES = new Set(['genStyleHooks', 'genComponentStyleHook', 'genSubStyleComponent']);

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

/**
 * antd's component styles come from its static antd.css (App.tsx sets theme.zeroRuntime), so the functions
 * that would generate them in the browser are never called: antd's style hooks return before calling them.
 * This drops them from the bundle: the style function argument of every genStyleHooks / genComponentStyleHook /
 * genSubStyleComponent call in antd is replaced by one returning no styles, and what only it used is then
 * tree-shaken. The hooks themselves (hashed class names, component CSS variables) are untouched.
 */
export function antdStaticStyles(): Plugin {
  return {
    name: 'antd-static-styles',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]antd[\\/]es[\\/]/.test(id) || !/gen(StyleHooks|ComponentStyleHook|SubStyleComponent)\(/.test(code)) return null;
      const ast = this.parse(code) as unknown as Node;
      const cuts: [number, number][] = [];
      const visit = (node: unknown): void => {
        if (!node || typeof node !== 'object') return;
        if (Array.isArray(node)) return void node.forEach(visit);
        const n = node as Node;
        if (n.type === 'CallExpression') {
          const callee = n.callee as Node & { name?: string };
          const args = n.arguments as Node[];
          if (callee.type === 'Identifier' && STYLE_HOOK_FACTORIES.has(callee.name ?? '') && args.length >= 2) {
            const styleFn = args[1];
            if (styleFn.type === 'ArrowFunctionExpression' || styleFn.type === 'FunctionExpression' || styleFn.type === 'Identifier') cuts.push([styleFn.start, styleFn.end]);
          }
        }
        for (const [k, v] of Object.entries(n)) if (k !== 'start' && k !== 'end' && typeof v === 'object') visit(v);
      };
      visit(ast);
      if (!cuts.length) return null;
      let out = code;
      for (const [start, end] of cuts.sort((a, b) => b[0] - a[0])) out = `${out.slice(0, start)}() => []${out.slice(end)}`;
      return { code: out, map: null };
    },
  };
}
