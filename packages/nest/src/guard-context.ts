import type { CanActivate, ExecutionContext, Type } from '@nestjs/common';
import { HttpException } from '@nestjs/common';

/** The smallest HTTP `ExecutionContext` a guard needs; `getClass()` / `getHandler()` give `owner` and `handler`. */
export function createHttpExecutionContext(
  request: unknown,
  response: unknown,
  owner: Type<unknown>,
  handler: Function,
): ExecutionContext {
  const args = [request, response, undefined];
  const http = {
    getRequest: <T>() => request as T,
    getResponse: <T>() => response as T,
    getNext: <T>() => undefined as T,
  };
  const unsupported = (kind: string) => () => {
    throw new Error(`AgentCardModule: a guard asked for the ${kind} context of an HTTP extended-card request.`);
  };
  return {
    getClass: <T>() => owner as Type<T>,
    getHandler: () => handler,
    getArgs: <T extends unknown[]>() => args as T,
    getArgByIndex: <T>(index: number) => args[index] as T,
    getType: <T extends string>() => 'http' as T,
    switchToHttp: () => http,
    switchToRpc: unsupported('RPC') as ExecutionContext['switchToRpc'],
    switchToWs: unsupported('WebSocket') as ExecutionContext['switchToWs'],
  };
}

/** Like Nest's guard consumer: an Observable result counts by its last value. */
function settle(value: unknown): Promise<unknown> {
  const subscribe = (value as { subscribe?: unknown } | null | undefined)?.subscribe;
  if (typeof value !== 'object' || typeof subscribe !== 'function') return Promise.resolve(value);
  return new Promise((resolve, reject) => {
    let last: unknown = false;
    subscribe.call(value, { next: (v: unknown) => (last = v), error: reject, complete: () => resolve(last) });
  });
}

/** Whether every guard passes, in order; an `HttpException` counts as "not passed", other errors propagate. */
export async function runGuards(guards: readonly CanActivate[], context: ExecutionContext): Promise<boolean> {
  for (const guard of guards) {
    try {
      if (!(await settle(guard.canActivate(context)))) return false;
    } catch (error) {
      if (error instanceof HttpException) return false;
      throw error;
    }
  }
  return true;
}
