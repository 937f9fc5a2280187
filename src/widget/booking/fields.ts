// What a config form field is for, and the answers' rules. One heuristic serves autocomplete,
// prefill and email validation:
//   email: inputType "email", or an id containing "email" / "e-mail"
//   name:  inputType "name", or an id of "name", "full_name", "fullname" or "full-name"
//   tel:   inputType "tel", or an id containing "phone" or "tel"
// Prefill: context.prefill[field.id] wins; otherwise context.prefill.email / .name / .tel fills the
// field with that purpose. Answers are keyed by field id in a Map: ids are the owner's words, and one
// such as `constructor` must not read an object's prototype.
import type { FormField } from '../../core/types';
import { isEmail } from '../../core/validate';

export type FieldPurpose = 'email' | 'name' | 'tel';
export type FieldError = 'required' | 'email';

export function fieldPurpose(field: FormField): FieldPurpose | undefined {
  const { id, inputType } = field;
  if (inputType === 'email' || /e-?mail/i.test(id)) return 'email';
  if (inputType === 'name' || /^(full[-_]?)?name$/i.test(id)) return 'name';
  if (inputType === 'tel' || /phone|tel/i.test(id)) return 'tel';
  return undefined;
}

export type Answers = ReadonlyMap<string, string>;

export function prefilledAnswers(fields: readonly FormField[], prefill: Record<string, string> = {}): Answers {
  const given = new Map(Object.entries(prefill));
  return new Map(fields.map((field) => [field.id, given.get(field.id) ?? given.get(fieldPurpose(field) ?? '') ?? '']));
}

export const fieldError = (field: FormField, value: string): FieldError | undefined => {
  const v = value.trim();
  if (!v) return field.required ? 'required' : undefined;
  return fieldPurpose(field) === 'email' && !isEmail(v) ? 'email' : undefined;
};

/** Each field with its trimmed answer, in the config's order; empty answers left out. */
export function filled(fields: readonly FormField[], answers: Answers): [FormField, string][] {
  return fields.flatMap((field): [FormField, string][] => {
    const v = answers.get(field.id)?.trim();
    return v ? [[field, v]] : [];
  });
}

/** The answers sent on create: trimmed, empty optional answers left out; `{}` when there are none (the spec requires formData). */
export const formData = (fields: readonly FormField[], answers: Answers): Record<string, string> => {
  return Object.fromEntries(filled(fields, answers).map(([field, v]) => [field.id, v]));
};
