CREATE TABLE `gateway_search_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	`message_id` text NOT NULL,
	`event_id` text NOT NULL,
	`seq` integer NOT NULL,
	`ts` text NOT NULL,
	`author_entity_id` text NOT NULL,
	`author_type` text NOT NULL,
	`body` text NOT NULL,
	`edited` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `gateway_search_msg_idx` ON `gateway_search_messages` (`tenant_id`,`message_id`);--> statement-breakpoint
CREATE INDEX `gateway_search_seq_idx` ON `gateway_search_messages` (`tenant_id`,`seq`);--> statement-breakpoint
CREATE TABLE `gateway_search_state` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`indexed_seq` integer NOT NULL
);
--> statement-breakpoint
-- A deleted or edited message's old words are removed from the index itself (secure-delete), not only masked.
CREATE VIRTUAL TABLE `gateway_search_fts` USING fts5(body, content='gateway_search_messages', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `gateway_search_ai` AFTER INSERT ON `gateway_search_messages` BEGIN
  INSERT INTO gateway_search_fts(rowid, body) VALUES (new.id, new.body);
END;
--> statement-breakpoint
CREATE TRIGGER `gateway_search_ad` AFTER DELETE ON `gateway_search_messages` BEGIN
  INSERT INTO gateway_search_fts(gateway_search_fts, rowid, body) VALUES ('delete', old.id, old.body);
END;
--> statement-breakpoint
CREATE TRIGGER `gateway_search_au` AFTER UPDATE OF body ON `gateway_search_messages` BEGIN
  INSERT INTO gateway_search_fts(gateway_search_fts, rowid, body) VALUES ('delete', old.id, old.body);
  INSERT INTO gateway_search_fts(rowid, body) VALUES (new.id, new.body);
END;
--> statement-breakpoint
INSERT INTO gateway_search_fts(gateway_search_fts, rank) VALUES ('secure-delete', 1);
