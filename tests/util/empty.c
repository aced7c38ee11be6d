/* keeps the helper library non-empty while tests/util grows */
