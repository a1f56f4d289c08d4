// Breaks log-package-stands-alone: the log package loads a framework.
export { Injectable } from '@nestjs/common';
