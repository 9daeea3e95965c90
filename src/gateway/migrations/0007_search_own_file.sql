-- The search index moved to its own file (logline.sqlite-search, written by its own thread) and is rebuilt there from the ledger.
DROP TABLE `gateway_search_fts`;--> statement-breakpoint
DROP TABLE `gateway_search_messages`;--> statement-breakpoint
DROP TABLE `gateway_search_state`;
