// What a config form field is for, and the answers' rules. One heuristic serves autocomplete,
// prefill and email validation:
//   email: inputType "email", or an id containing "email" / "e-mail"
//   name:  inputType "name", or an id of "name", "full_name", "fullname" or "full-name"
//   tel:   inputType "tel", or an id containing "phone" or "tel"
// Prefill: context.prefill[field.id] wins; otherwise context.prefill.email / .name / .tel fills the
// field with that purpose.
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

export function prefilledAnswers(fields: readonly FormField[], prefill: Record<string, string> = {}): Record<string, string> {
  const answers: Record<string, string> = {};
  for (const field of fields) {
    const purpose = fieldPurpose(field);
    answers[field.id] = prefill[field.id] ?? (purpose && prefill[purpose]) ?? '';
  }
  return answers;
}

export function fieldError(field: FormField, value: string): FieldError | undefined {
  const v = value.trim();
  if (!v) return field.required ? 'required' : undefined;
  return fieldPurpose(field) === 'email' && !isEmail(v) ? 'email' : undefined;
}

/** Each field with its trimmed answer, in the config's order; empty answers left out. */
export function filled(fields: readonly FormField[], answers: Record<string, string>): [FormField, string][] {
  return fields.flatMap((field): [FormField, string][] => {
    const v = answers[field.id]?.trim();
    return v ? [[field, v]] : [];
  });
}

/** The answers sent on create: trimmed, empty optional answers left out. */
export function formData(fields: readonly FormField[], answers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(filled(fields, answers).map(([field, v]) => [field.id, v]));
}
