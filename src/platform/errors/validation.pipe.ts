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

function fieldErrors(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = error.constraints ? [{ field, messages: Object.values(error.constraints) }] : [];
    return [...own, ...fieldErrors(error.children ?? [], field)];
  });
}
