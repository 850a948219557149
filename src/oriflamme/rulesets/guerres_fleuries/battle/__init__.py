"""Les Guerres Fleuries on the table (issue 13): the battlefield, its terrain, and the battle."""
