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

@Module({})
export class AppModule {
  /** The application, with defaults for settings the environment does not provide. */
  static register(defaults: AppSettings = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => defaults] }),
        // The card lists no skills by hand: they come from @Skill() on the controllers.
        AgentCardModule.forRootAsync({
          imports: [AuthModule],
          inject: [ConfigService],
          useFactory: (config: ConfigService) => ({
            name: 'Acme Shop',
            description: 'Searches the Acme product catalog, places orders and tracks their delivery.',
            version: '1.0.0',
            url: `${config.get<string>('PUBLIC_URL', 'http://localhost:3000')}/a2a`,
            binding: 'HTTP+JSON',
            provider: { organization: 'Acme Corp', url: 'https://acme-corp.io' },
            securitySchemes: { apiKey: { apiKeySecurityScheme: { location: 'header', name: 'x-api-key' } } },
            securityRequirements: [{ schemes: { apiKey: { list: [] } } }],
            guards: [ApiKeyGuard],
          }),
        }),
        CatalogModule,
        OrdersModule,
      ],
    };
  }
}
