import { DOMAIN_ERRORS, type DomainErrorCode, type ErrorCategory } from '../../domain/error-catalogue.js';

/**
 * The web routes' status by category: the seed's statuses, 400 for a bad request, 404 for a session or object that is
 * gone, 409 for every refusal of a state or a rule (the seed answered 409 there, and clients of the web routes switch
 * on the `error` code, not the status).
 */
const CATEGORY_STATUS: Readonly<Record<ErrorCategory, number>> = Object.freeze({
  invalid: 400,
  not_found: 404,
  // An ended session is gone like an unknown one; its own code says why.
  expired: 404,
  conflict: 409,
  denied: 409,
  limit: 409,
  unavailable: 503,
  internal: 500,
});

/** Codes whose web form differs from the category's: the seed's names and statuses where it had them. */
const WEB_EXCEPTIONS: Partial<Record<DomainErrorCode, { readonly status?: number; readonly error?: string }>> =
  Object.freeze({
    invalid_argument: { error: 'invalid_request' },
    session_not_found: { error: 'unknown_session' },
    chat_provider_error: { status: 502, error: 'chat_unavailable' },
    // The plan is still there and can be retried: a conflict with its state on the web routes, as it always was.
    approval_expired: { status: 409 },
  });

/** The status and the `error` code the web routes answer a typed error with. */
export function webErrorOf(code: DomainErrorCode): { readonly status: number; readonly error: string } {
  const exception = WEB_EXCEPTIONS[code];
  return {
    status: exception?.status ?? CATEGORY_STATUS[DOMAIN_ERRORS[code].category],
    error: exception?.error ?? code,
  };
}
