import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { AgentCardModule } from '@agent-card/nest';
import { ApiKeyGuard } from './auth/api-key.guard.js';
import { AuthModule } from './auth/auth.module.js';
import { CatalogModule } from './catalog/catalog.module.js';
import { OrdersModule } from './orders/orders.module.js';

/** Settings the service reads through ConfigService (environment variables win). */
export interface AppSettings {
  /** Where clients reach this service, e.g. `https://shop.acme-corp.io`. */
  PUBLIC_URL?: string;
  /** Comma-separated API keys for internal routes and the extended card. */
  API_KEYS?: string;
}

/** The settings present in the environment. */
function fromEnvironment(): AppSettings {
  const settings: AppSettings = {};
  if (process.env.PUBLIC_URL) settings.PUBLIC_URL = process.env.PUBLIC_URL;
  if (process.env.API_KEYS) settings.API_KEYS = process.env.API_KEYS;
  return settings;
}

@Module({})
export class AppModule {
  /** The application, with defaults for settings the environment does not provide. */
  static register(defaults: AppSettings = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        // ConfigService prefers loaded values over process.env, so the environment is merged in here.
        ConfigModule.forRoot({
          isGlobal: true,
          ignoreEnvFile: true,
          load: [() => ({ ...defaults, ...fromEnvironment() })],
        }),
        // The card lists no skills by hand: they come from @Skill() on the controllers.
        AgentCardModule.forRootAsync({
          imports: [AuthModule],
          inject: [ConfigService],
          useFactory: (config: ConfigService) => ({
            definition: {
              name: 'Acme Shop',
              description: 'Searches the Acme product catalog, places orders and tracks their delivery.',
              version: '1.0.0',
              url: `${config.get<string>('PUBLIC_URL', 'http://localhost:3000')}/a2a`,
              binding: 'HTTP+JSON',
              provider: { organization: 'Acme Corp', url: 'https://acme-corp.io' },
              securitySchemes: { apiKey: { apiKeySecurityScheme: { location: 'header', name: 'x-api-key' } } },
              securityRequirements: [{ schemes: { apiKey: { list: [] } } }],
            },
            extended: { guards: [ApiKeyGuard] },
            // The card as a page for people, at /.well-known/agent-card.html.
            viewer: true,
          }),
        }),
        CatalogModule,
        OrdersModule,
      ],
    };
  }
}
