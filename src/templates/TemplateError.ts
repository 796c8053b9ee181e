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
export class TemplateLimitError extends TemplateError {
  constructor(
    message: string,
    template: string,
    /**
     * False when the renderer process was killed (out of memory, past the pool's deadline)
     * while rendering one of several templates: which one is not known, `template` is the first.
     */
    readonly located = true,
  ) {
    super(message, template);
  }
}

/** Every renderer is busy and the queue is full: try again later. */
export class TemplateBusyError extends Error {}
