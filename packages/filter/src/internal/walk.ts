import type { Expression } from '../ast.js';

/**
 * Visits every node of an expression, parents first, without recursion (ASTs of long `or` chains
 * are thousands of levels deep).
 * @internal
 */
export function walk(root: Expression, visit: (node: Expression, depth: number) => void): void {
  const stack: Array<[Expression, number]> = [[root, 0]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [node, depth] = item;
    visit(node, depth);
    switch (node.kind) {
      case 'and':
      case 'or':
        // Chains of the same operator count as one level.
        stack.push([node.right, node.right.kind === node.kind ? depth : depth + 1]);
        stack.push([node.left, node.left.kind === node.kind ? depth : depth + 1]);
        break;
      case 'not':
        stack.push([node.operand, depth + 1]);
        break;
      case 'collection':
        stack.push([node.body, depth + 1]);
        break;
      case 'match':
        break;
    }
  }
}

/**
 * Flattens a chain of one boolean operator into its operands, left to right, without recursion.
 * @internal
 */
export function flatten(node: Expression, kind: 'and' | 'or'): Expression[] {
  const out: Expression[] = [];
  const stack: Expression[] = [node];
  for (let n = stack.pop(); n !== undefined; n = stack.pop()) {
    if (n.kind === kind) {
      stack.push(n.right, n.left);
    } else out.push(n);
  }
  return out;
}
