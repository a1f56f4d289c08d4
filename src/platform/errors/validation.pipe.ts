import { HttpStatus, ValidationPipe, type ValidationError } from '@nestjs/common';
import { DomainError, type FieldError } from './domain-error';

/** Unknown fields are rejected rather than dropped, so a misspelt optional field never passes silently. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors) => validationError(fieldErrors(errors)),
  });
}

export function validationError(details: FieldError[]): DomainError {
  const fields = details.map((detail) => detail.field).join(', ');
  return new DomainError('VALIDATION_ERROR', `Invalid value for ${fields}`, HttpStatus.BAD_REQUEST, details);
}

/**
 * One entry per field. A required field that was not sent gets one message, that it is required:
 * every other rule of the field fails on a missing value too, and listing them all ("must be an
 * array", "must contain at least 1 elements"…) tells the caller nothing more.
 */
function fieldErrors(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    if (!error.constraints) return fieldErrors(error.children ?? [], field);
    const messages = error.value === undefined ? [`${field} is required`] : Object.values(error.constraints);
    return [{ field, messages }, ...fieldErrors(error.children ?? [], field)];
  });
}
