/** A request the service refuses, with the reason meant for the caller; the API maps kind to a status. */
export type RefusalKind = 'invalid' | 'unauthenticated' | 'forbidden' | 'not-found' | 'conflict' | 'too-many';

export class ServiceRefusal extends Error {
  readonly kind: RefusalKind;

  constructor(kind: RefusalKind, message: string) {
    super(message);
    this.name = 'ServiceRefusal';
    this.kind = kind;
  }
}

/** The docs source could not be read (a missing ConfigMap, say); the message is meant for the caller. */
export class SourceUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceUnavailable';
  }
}

/** An export stopped because it passed a limit of its process (memory, time); the message says which. */
export class ExportLimitExceeded extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExportLimitExceeded';
  }
}
