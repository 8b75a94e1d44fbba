import { isKeyword, isName, nameOf, nextWord, type Token } from '../lexer/sql-tokens.js';

/** What a schema statement creates, changes or drops, read from its first words. */
export interface StatementHead {
  verb: 'CREATE' | 'ALTER' | 'DROP';
  /** TABLE, VIEW, MATERIALIZED VIEW, FUNCTION, DICTIONARY, DATABASE … */
  object: string;
  /** The object's name, unquoted; qualified names (`db.t`) are refused below. */
  name: string;
  /** Token index of the name. */
  nameAt: number;
  /** Token index right after the name (where `ON CLUSTER` goes). */
  afterName: number;
  /** Whether the statement says IF NOT EXISTS / IF EXISTS / OR REPLACE. */
  guarded: boolean;
}

const OBJECTS = [
  'MATERIALIZED VIEW',
  'LIVE VIEW',
  'WINDOW VIEW',
  'TABLE',
  'VIEW',
  'FUNCTION',
  'DICTIONARY',
  'DATABASE',
];

/** The head of `tokens`, or undefined for a statement that is not CREATE / ALTER / DROP of a named object. */
export function readHead(tokens: readonly Token[]): StatementHead | undefined {
  let i = nextWord(tokens, 0);
  const verb = tokens[i]?.text.toUpperCase();
  if (verb !== 'CREATE' && verb !== 'ALTER' && verb !== 'DROP') return undefined;
  i = nextWord(tokens, i + 1);
  let guarded = false;
  if (verb === 'CREATE' && isKeyword(tokens[i], 'OR')) {
    i = nextWord(tokens, nextWord(tokens, i + 1) + 1); // OR REPLACE
    guarded = true;
  }
  let object: string | undefined;
  for (const candidate of OBJECTS) {
    const words = candidate.split(' ');
    let j = i;
    let matched = true;
    for (const w of words) {
      if (!isKeyword(tokens[j], w)) {
        matched = false;
        break;
      }
      j = nextWord(tokens, j + 1);
    }
    if (matched) {
      object = candidate;
      i = j;
      break;
    }
  }
  if (!object) return undefined;
  if (isKeyword(tokens[i], 'IF')) {
    guarded = true;
    i = nextWord(tokens, i + 1);
    if (isKeyword(tokens[i], 'NOT')) i = nextWord(tokens, i + 1);
    i = nextWord(tokens, i + 1); // EXISTS
  }
  const nameToken = tokens[i];
  if (!nameToken || !isName(nameToken)) return undefined;
  const afterName = i + 1;
  if (tokens[nextWord(tokens, afterName)]?.type === 'Dot') {
    throw new RangeError(
      `Schema statements name their objects without a database (${nameToken.text}.…): the cluster renderer qualifies them itself`,
    );
  }
  return { verb, object, name: nameOf(nameToken), nameAt: i, afterName, guarded };
}
