import type { z } from 'zod';
import { type CodedMessage, renderError } from './catalogue.ts';
import { issueMessage } from './zodIssues.ts';

/**
 * A part of a saved file template (one of its JSON text fields: a bank template's columns, an SI change template's
 * lists) that is wrong: the part's label and the reason as a catalogue message (a rule of ours, or zod's first
 * complaint at its path), for the answer in the reader's language; `message` is the Chinese text.
 */
export class TemplatePartError extends Error {
  constructor(
    readonly part: string,
    readonly reason: CodedMessage,
  ) {
    super(`${part}: ${renderError(reason.code, reason.params ?? {}, 'zh')}`);
  }
}

/** zod's first complaint about a template part, at its path inside the part's JSON. */
export function templatePartIssue(error: z.ZodError): CodedMessage {
  const issue = error.issues[0];
  if (!issue) return { code: 'VALIDATION' };
  const reason = issueMessage(issue);
  const path = issue.path.join('.');
  return path ? { code: 'LAYOUT_AT', params: { path, reason } } : reason;
}
