// A Nest module as users write it: legacy decorators, constructor metadata emitted by tsc.
import { Controller, Get, Injectable, Module, Post } from '@nestjs/common';
import { AgentCardModule, AgentSkills, Skill } from '@agent-card/nest';

@Injectable()
export class OrdersService {
  status(): string {
    return 'shipped';
  }
}

@AgentSkills({ tags: ['orders'] })
@Controller('orders')
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  @Post()
  @Skill({ description: 'Places an order for catalog products.', examples: ['Order two blue mugs'] })
  placeOrder() {
    return { placed: true };
  }

  @Get(':id')
  @Skill('track-order', { description: 'Reports the status of an order.', tags: ['tracking'] })
  track() {
    return { status: this.orders.status() };
  }
}

@Module({
  imports: [
    AgentCardModule.forRoot({
      definition: {
        name: 'Acme Shop',
        description: 'Places and tracks orders for Acme products.',
        version: '1.0.0',
        url: 'https://shop.acme-corp.io/a2a',
        binding: 'HTTP+JSON',
      },
    }),
  ],
  controllers: [OrdersController],
  providers: [OrdersService],
})
export class OrdersModule {}
