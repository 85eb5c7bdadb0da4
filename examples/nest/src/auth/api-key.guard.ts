import { Inject, Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';

/**
 * The guard this service already uses for its internal routes: a key from `API_KEYS`
 * (comma-separated) in the `x-api-key` header. The Agent Card module reuses it for the
 * extended card.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly keys: ReadonlySet<string>;

  constructor(@Inject(ConfigService) config: ConfigService) {
    const configured = config.get<string>('API_KEYS') ?? '';
    this.keys = new Set(
      configured
        .split(',')
        .map((key) => key.trim())
        .filter(Boolean),
    );
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, unknown>; user?: unknown }>();
    const key = request.headers['x-api-key'];
    if (typeof key !== 'string' || !this.keys.has(key)) {
      throw new UnauthorizedException('A valid x-api-key header is required.');
    }
    request.user = { kind: 'api-key' };
    return true;
  }
}
