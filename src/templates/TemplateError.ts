/** A template that cannot be rendered: its syntax, an error while it ran, or a limit it reached. */
export class TemplateError extends Error {
  constructor(
    message: string,
    /** The template's name as the caller gave it (an export template's name, `body_template`...). */
    readonly template: string,
  ) {
    super(message);
  }
}

/** The render ran past its time or memory limit and was stopped. */
export class TemplateLimitError extends TemplateError {}

/** Every renderer is busy and the queue is full: try again later. */
export class TemplateBusyError extends Error {}
