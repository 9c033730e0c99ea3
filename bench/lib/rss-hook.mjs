// Loaded with NODE_OPTIONS=--import when /usr/bin/time is missing: prints the process's peak RSS (KB) at exit.
process.on('exit', () => process.stderr.write(`MAXRSS ${process.resourceUsage().maxRSS}\n`));
