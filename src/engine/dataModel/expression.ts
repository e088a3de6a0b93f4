/**
 * Custom metric expressions (spec 1 §5): field ids, numbers, + - * / and parentheses, with at most one
 * division, at the top level. That shape is what makes the metric a ratio of aggregates: the part before
 * the division is summed over the rows, the part after it too, and only then divided.
 */

export type Token =
  | { kind: 'field'; text: string }
  | { kind: 'number'; text: string }
  | { kind: 'operator'; text: '+' | '-' | '*' | '/' }
  | { kind: 'open'; text: '(' }
  | { kind: 'close'; text: ')' };

export const expressionMessages = {
  required: 'Expression is required',
  invalidTokens: 'Expression contains invalid tokens',
  unexpectedClose: 'Unbalanced parentheses - unexpected closing parenthesis',
  missingClose: 'Unbalanced parentheses - missing closing parenthesis',
  divisionInParentheses: 'Cannot use / within parentheses',
  endsWithOperator: 'Expression cannot end with an operator',
  endsWithOpen: 'Expression cannot end with an open parenthesis',
  twoOperands: 'Cannot have two operands in a row without an operator',
  twoOperators: 'Cannot have two operators in a row',
  closeAfterOperator: 'Cannot have a closing parenthesis after an operator',
  operatorAfterOpen: 'Cannot have an operator after an opening parenthesis',
  oneDivision: 'Only one division (/) operator is allowed',
} as const;

const TOKEN = /\s*(?:([A-Za-z_][A-Za-z0-9_]*)|(\d+(?:\.\d+)?)|([-+*/])|(\()|(\)))/y;

/** Splits an expression into tokens; null when some character is not part of any token. */
export function tokenize(expression: string): Token[] | null {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  let position = 0;
  while (position < expression.length) {
    if (expression.slice(position).trim() === '') break;
    TOKEN.lastIndex = position;
    const match = TOKEN.exec(expression);
    if (!match) return null;
    position = TOKEN.lastIndex;
    if (match[1]) tokens.push({ kind: 'field', text: match[1] });
    else if (match[2]) tokens.push({ kind: 'number', text: match[2] });
    else if (match[3]) tokens.push({ kind: 'operator', text: match[3] as '+' | '-' | '*' | '/' });
    else if (match[4]) tokens.push({ kind: 'open', text: '(' });
    else tokens.push({ kind: 'close', text: ')' });
  }
  return tokens;
}

/**
 * The first error of an expression in reading order, or null when it is valid. `allowedFields` are the ids
 * the expression may use (metrics earlier in the list); any other name counts as an invalid token, and so
 * does an operator at the very start (there is no unary minus).
 */
export function validateExpression(expression: string | undefined, allowedFields: ReadonlySet<string>): string | null {
  if (expression === undefined || expression.trim() === '') return expressionMessages.required;
  const tokens = tokenize(expression);
  if (!tokens) return expressionMessages.invalidTokens;
  if (tokens.some((token) => token.kind === 'field' && !allowedFields.has(token.text))) {
    return expressionMessages.invalidTokens;
  }
  let depth = 0;
  let divisions = 0;
  let previous: Token | undefined;
  for (const token of tokens) {
    const operand = token.kind === 'field' || token.kind === 'number';
    const previousOperand = previous?.kind === 'field' || previous?.kind === 'number' || previous?.kind === 'close';
    if (token.kind === 'close') {
      if (previous?.kind === 'operator') return expressionMessages.closeAfterOperator;
      depth -= 1;
      if (depth < 0) return expressionMessages.unexpectedClose;
    } else if (token.kind === 'open') {
      if (previousOperand) return expressionMessages.twoOperands;
      depth += 1;
    } else if (token.kind === 'operator') {
      if (!previous) return expressionMessages.invalidTokens;
      if (previous.kind === 'operator') return expressionMessages.twoOperators;
      if (previous.kind === 'open') return expressionMessages.operatorAfterOpen;
      if (token.text === '/') {
        if (depth > 0) return expressionMessages.divisionInParentheses;
        divisions += 1;
        if (divisions > 1) return expressionMessages.oneDivision;
      }
    } else if (operand && previousOperand) {
      return expressionMessages.twoOperands;
    }
    previous = token;
  }
  if (previous?.kind === 'operator') return expressionMessages.endsWithOperator;
  if (previous?.kind === 'open') return expressionMessages.endsWithOpen;
  if (depth > 0) return expressionMessages.missingClose;
  return null;
}

/** The field ids an expression refers to (in order, without repeats); [] when it does not tokenize. */
export function expressionFieldIds(expression: string): string[] {
  const ids = (tokenize(expression) ?? []).filter((token) => token.kind === 'field').map((token) => token.text);
  return [...new Set(ids)];
}

/** The expression with every reference to `from` renamed to `to`, spacing normalised. */
export function renameInExpression(expression: string, from: string, to: string): string {
  const tokens = tokenize(expression);
  if (!tokens) return expression;
  return tokens.map((token) => (token.kind === 'field' && token.text === from ? to : token.text)).join(' ');
}

/**
 * True when a valid expression is a sum of its metrics times numbers (`revenue - sent * 0.01`, `(a + b) * 2`): no
 * division and no product of two metrics, every metric used being sum-like (`sumLike`). Such a metric accumulates
 * over days like its parts do.
 */
export function isLinearExpression(tokens: readonly Token[], sumLike: (id: string) => boolean): boolean {
  let position = 0;
  // The degree of each part in its metrics: 0 a constant, 1 linear, Infinity anything else.
  const factor = (): number => {
    const token = tokens[position++];
    if (token?.kind === 'number') return 0;
    if (token?.kind === 'field') return sumLike(token.text) ? 1 : Infinity;
    if (token?.kind !== 'open') return Infinity;
    const degree = sum();
    return tokens[position++]?.kind === 'close' ? degree : Infinity;
  };
  const product = (): number => {
    let degree = factor();
    while (tokens[position]?.kind === 'operator' && tokens[position].text === '*') {
      position += 1;
      degree += factor();
    }
    return degree;
  };
  const sum = (): number => {
    let degree = product();
    while (tokens[position]?.kind === 'operator' && (tokens[position].text === '+' || tokens[position].text === '-')) {
      position += 1;
      degree = Math.max(degree, product());
    }
    return degree;
  };
  const degree = sum();
  return position === tokens.length && degree <= 1;
}
