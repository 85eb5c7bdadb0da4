import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { OrdersController } from './orders.controller.js';

@Module({ imports: [AuthModule], controllers: [OrdersController] })
export class OrdersModule {}
