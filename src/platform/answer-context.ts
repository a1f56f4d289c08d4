import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Observable } from 'rxjs';

/** The answer of the request being served, so that what reads its data can say how current it is on it. */
const answers = new AsyncLocalStorage<FastifyReply>();

/** Sets a header on the answer of the request being served (none outside a request). */
export function setAnswerHeader(name: string, value: string): void {
  answers.getStore()?.header(name, value);
}

/** Runs each request with its answer at hand for setAnswerHeader. */
@Injectable()
export class AnswerContextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return new Observable((subscriber) => answers.run(reply, () => next.handle().subscribe(subscriber)));
  }
}
