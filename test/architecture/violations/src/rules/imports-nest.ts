import { Injectable } from '@nestjs/common';

export const RULE = Injectable;
