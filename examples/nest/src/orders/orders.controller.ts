import { Body, Controller, Get, Param, Post, UseGuards } from '@nestjs/common';
import { AgentSkills, Skill } from '@agent-card/nest';
import { ApiKeyGuard } from '../auth/api-key.guard.js';

@AgentSkills({ tags: ['orders'], outputModes: ['application/json'] })
@Controller('orders')
export class OrdersController {
  @Post()
  @Skill('place-order', {
    description: 'Places an order for catalog products and returns the order number.',
    examples: ['Order two blue mugs for delivery to Berlin'],
  })
  placeOrder(@Body() body: { items?: unknown[] }) {
    return { id: 'A-1001', items: body?.items ?? [], status: 'received' };
  }

  @Get(':id')
  @Skill({ description: 'Reports the status and delivery estimate of an order.', tags: ['tracking'] })
  trackOrder(@Param('id') id: string) {
    return { id, status: 'shipped', estimatedDelivery: '2 days' };
  }

  // An internal route: behind the API key here, and published only in the extended card.
  @Get('reports/daily')
  @UseGuards(ApiKeyGuard)
  @Skill('sales-report', {
    description: "Summarises the day's orders and revenue for the operations team.",
    tags: ['reports'],
    extended: true,
  })
  dailyReport() {
    return { orders: 42, revenue: 1234.5 };
  }
}
