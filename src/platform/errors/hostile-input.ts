import type { FieldError } from './domain-error';

/** docs/design.md: JSON nested deeper than this is refused before any route or validator walks it. */
export const MAX_JSON_DEPTH = 32;

const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a text cannot be kept as text: PostgreSQL refuses U+0000, and an unpaired surrogate has no UTF-8 form. */
function unfitText(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain the character U+0000';
  if (UNPAIRED_SURROGATE.test(text)) return 'must not contain an unpaired UTF-16 surrogate';
  return undefined;
}

/** What a parsed body holds that no route can take: a number JSON cannot express, or a field for a 400. */
export type JsonRefusal = { kind: 'non-finite' } | { kind: 'field'; detail: FieldError };

/** Iterative, so a body nested thousands deep is refused without exhausting the stack. */
export function refuseJson(root: unknown): JsonRefusal | undefined {
  const pending: Array<{ value: unknown; field: string; depth: number }> = [{ value: root, field: 'body', depth: 0 }];
  while (pending.length > 0) {
    const { value, field, depth } = pending.pop()!;
    if (typeof value === 'number' && !Number.isFinite(value)) return { kind: 'non-finite' };
    if (typeof value === 'string') {
      const why = unfitText(value);
      if (why) return { kind: 'field', detail: { field, messages: [`${field} ${why}`] } };
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth === MAX_JSON_DEPTH) {
      return {
        kind: 'field',
        detail: { field, messages: [`${field} is nested deeper than ${MAX_JSON_DEPTH} levels`] },
      };
    }
    for (const [key, child] of Object.entries(value)) {
      const why = unfitText(key);
      if (why) return { kind: 'field', detail: { field, messages: [`a field name in ${field} ${why}`] } };
      pending.push({ value: child, field: field === 'body' ? key : `${field}.${key}`, depth: depth + 1 });
    }
  }
  return undefined;
}

/** The path parameters and query values no route can take, one entry per field. */
export function refuseTexts(values: Record<string, unknown>): FieldError[] {
  return Object.entries(values).flatMap(([field, value]) =>
    (Array.isArray(value) ? value : [value]).flatMap((text) => {
      const why = typeof text === 'string' ? unfitText(text) : undefined;
      return why ? [{ field, messages: [`${field} ${why}`] }] : [];
    }),
  );
}
